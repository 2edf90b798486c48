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

    /**
     * Bearer token this service presents to the others (FERRY_RESOLVER_SERVICE_TOKEN). Read by services/lib/service-token;
     * declared here so that the key stays known to this mapping.
     */
    Optional<String> serviceToken();

    /** The in-memory copy of resolved handles that answers resolutions without a database round trip. */
    Cache cache();

    interface Cache {

        /**
         * Memory for cached resolutions, in MiB (about 1 KiB per handle of two values); 0 turns the cache off.
         * A namespace that fits is answered from memory after the preload; a larger one keeps its most used handles.
         */
        @WithDefault("64")
        int maxMegabytes();

        /** Fill the cache from the database at start and after bulk changes, instead of only on first use. */
        @WithDefault("true")
        boolean preload();

        /**
         * Whether a resolution answered from memory starts a trace of its own. Off, such an answer is traced only when
         * its caller sends a traceparent (rest.CachedAnswerTracing says why); everything else is traced either way.
         */
        @WithDefault("false")
        boolean traceAllAnswers();
    }
}
