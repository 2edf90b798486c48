package io.ferry.profiles.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/** tcp-profiles settings ({@code ferry.profiles.*}; environment {@code FERRY_PROFILES_*}). */
@ConfigMapping(prefix = "ferry.profiles")
public interface ProfilesConfig {

    /** RTT assumed for stream advice when the caller gives none and no measurement is known. */
    @WithDefault("50ms")
    String defaultRtt();

    /** How long a call to rate-aggregator may take before the answer degrades to "no data". */
    @WithDefault("3s")
    Duration aggregatorTimeout();

    /**
     * Bearer token this service presents to the others (FERRY_PROFILES_SERVICE_TOKEN). Read by services/lib/service-token;
     * declared here so that the key stays known to this mapping.
     */
    Optional<String> serviceToken();
}
