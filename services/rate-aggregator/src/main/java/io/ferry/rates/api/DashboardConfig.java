package io.ferry.rates.api;

/** The page's settings, public as the dashboard is. */
public record DashboardConfig(String monitor_url) {
}
