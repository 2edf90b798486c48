package io.ferry.scheduler.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** The gauges sampled from PostgreSQL ({@code ferry.scheduler.metrics.*}; environment {@code FERRY_SCHEDULER_METRICS_*}). */
@ConfigMapping(prefix = "ferry.scheduler.metrics")
public interface MetricsConfig {

    /** How often the queue gauges are read: one grouped query over the open files each time. */
    @WithDefault("5s")
    Duration sampleInterval();
}
