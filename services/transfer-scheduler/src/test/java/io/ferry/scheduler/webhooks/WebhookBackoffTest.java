package io.ferry.scheduler.webhooks;

import io.quarkus.runtime.configuration.DurationConverter;
import io.smallrye.config.SmallRyeConfigBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The retry schedule docs/webhooks.md gives, with the settings a deployment gets when it sets none. */
class WebhookBackoffTest {

    /** Quarkus's converter reads the defaults' short form ({@code 10s}), as in the running service. */
    static final WebhookConfig DEFAULTS = new SmallRyeConfigBuilder().withConverter(Duration.class, 200, new DurationConverter())
            .withMapping(WebhookConfig.class).build().getConfigMapping(WebhookConfig.class);

    @Test
    void aFailedTryWaitsTenSecondsDoubledAfterEachFailureUpToTenMinutesForThreeDays() {
        WebhookDelivery delivery = new WebhookDelivery(DEFAULTS, null, null, null);
        assertEquals(List.of(10L, 20L, 40L, 80L, 160L, 320L, 600L, 600L),
                IntStream.rangeClosed(1, 8).mapToObj(attempts -> delivery.backoff(attempts).toSeconds()).toList());
        assertEquals(Duration.ofMinutes(10), delivery.backoff(10_000));
        assertEquals(Duration.ofDays(3), DEFAULTS.maxAge());
    }
}
