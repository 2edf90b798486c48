package io.ferry.scheduler.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * The web monitor at {@code /monitor/} ({@code ferry.monitor.*}; environment {@code FERRY_MONITOR_*}). rate-aggregator
 * runs on another port or host, so where its dashboard is must be told.
 */
@ConfigMapping(prefix = "ferry.monitor")
public interface MonitorConfig {

    /** rate-aggregator's dashboard, which the monitor links to (and which links back here). */
    @WithDefault("http://localhost:8084/dashboard/")
    String dashboardUrl();
}
