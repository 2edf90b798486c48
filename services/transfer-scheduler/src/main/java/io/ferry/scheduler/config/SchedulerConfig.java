package io.ferry.scheduler.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/** transfer-scheduler settings ({@code ferry.scheduler.*}; environment {@code FERRY_SCHEDULER_*}). */
@ConfigMapping(prefix = "ferry.scheduler")
public interface SchedulerConfig {

    /** Bearer token this service presents to the others (FERRY_SCHEDULER_SERVICE_TOKEN). */
    Optional<String> serviceToken();

    Advice advice();

    interface Advice {
        /** How long to wait for tcp-profiles before using one stream. */
        @WithDefault("2s")
        Duration timeout();

        /** How long an answer from tcp-profiles is reused for the same link. */
        @WithDefault("5m")
        Duration cacheFor();
    }
}
