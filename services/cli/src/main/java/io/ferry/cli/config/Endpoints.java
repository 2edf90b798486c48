package io.ferry.cli.config;

/** The services' base URLs; {@code schedulerHttps} is the scheduler's client-certificate port (X.509 proxies). */
public record Endpoints(String scheduler, String schedulerHttps, String resolver, String aggregator, String profiles) {
}
