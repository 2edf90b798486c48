package io.ferry.resolver.nativeprotocol;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

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

    /**
     * The server's private key (PKCS#8 PEM, or CNRI's unencrypted {@code privkey.bin}): it signs certified answers
     * and session setups; its public half is in the HS_SITE record served for homed prefixes. Unset: a key for this
     * run only (clients that kept the site then reject the next run's signatures).
     */
    Optional<Path> serverKeyFile();

    /** Generate an RSA key into {@link #serverKeyFile()} when that file does not exist (dev and tests). */
    @WithDefault("false")
    boolean generateServerKey();

    /** The longest a session lives without a message; a client asking for more gets this. */
    @WithDefault("24h")
    Duration maxSessionTimeout();
}
