package io.ferry.scheduler.webhooks;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/** Job webhooks ({@code ferry.scheduler.webhooks.*}; environment {@code FERRY_SCHEDULER_WEBHOOKS_*}). */
@ConfigMapping(prefix = "ferry.scheduler.webhooks")
public interface WebhookConfig {

    /** Whether this replica delivers webhook events (events are recorded either way). */
    @WithDefault("true")
    boolean enabled();

    /** How often due events are looked for. */
    @WithDefault("1s")
    Duration interval();

    /** Events claimed per pass. */
    @WithDefault("20")
    int batch();

    /** Wait after the first failed try; doubled after each further one, up to {@link #maxBackoff()}. */
    @WithDefault("10s")
    Duration initialBackoff();

    @WithDefault("10m")
    Duration maxBackoff();

    /** An event not delivered this long after it was recorded is given up (failed, with its last error). */
    @WithDefault("3d")
    Duration maxAge();

    /** How long delivered and failed events stay visible ({@code GET /webhooks/jobs/{id}}) before they are deleted. */
    @WithDefault("30d")
    Duration retention();

    /** Connecting, the TLS handshake, sending and the answer's head together: a slow receiver holds no sender longer. */
    @WithDefault("10s")
    Duration timeout();

    /**
     * A PEM file or directory of CAs trusted for receivers besides the JDK's; unset: the engine's
     * ({@code ferry.scheduler.engine.tls.ca-certificates}).
     */
    Optional<String> caCertificates();

    /**
     * Tests only: a hosts file ({@code address name…} lines) that replaces DNS for webhook hosts, so a test can point a
     * name at any address. Unset in production.
     */
    Optional<String> hostsFile();
}
