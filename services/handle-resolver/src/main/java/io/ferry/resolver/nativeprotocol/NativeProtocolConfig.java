package io.ferry.resolver.nativeprotocol;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** The native Handle protocol listener ({@code ferry.resolver.native.*}; environment: {@code FERRY_RESOLVER_NATIVE_*}). */
@ConfigMapping(prefix = "ferry.resolver.native")
public interface NativeProtocolConfig {

    /** Serve the native protocol at all. */
    @WithDefault("true")
    boolean enabled();

    /** TCP and UDP port; Handle.net's is 2641. 0 takes a free port (tests), advertised as bound. */
    @WithDefault("2641")
    int port();

    /** Address both sockets listen on. */
    @WithDefault("0.0.0.0")
    String bind();

    /**
     * UDP sockets on the port, each on its own event loop (SO_REUSEPORT spreads the senders across them); 0: one
     * per core.
     */
    @WithDefault("0")
    int udpSockets();

    /**
     * The IP address this server's HS_SITE record gives clients (an address, not a name: the record holds 16
     * bytes). Behind a load balancer, the balancer's address.
     */
    @WithDefault("127.0.0.1")
    String advertisedAddress();

    /** How long an issued challenge waits for its answer. */
    @WithDefault("60s")
    Duration challengeTimeout();
}
