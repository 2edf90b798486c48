package io.ferry.resolver.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/** handle-resolver settings ({@code ferry.resolver.*}; environment: {@code FERRY_RESOLVER_*}). */
@ConfigMapping(prefix = "ferry.resolver")
public interface ResolverConfig {

    /** How long a copy of transfer-scheduler's SE catalogue is used before it is fetched again. */
    @WithDefault("60s")
    Duration seCatalogueRefresh();

    /** Bearer token this service presents to the others (FERRY_RESOLVER_SERVICE_TOKEN). */
    Optional<String> serviceToken();
}
