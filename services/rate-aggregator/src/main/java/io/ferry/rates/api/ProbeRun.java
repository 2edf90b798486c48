package io.ferry.rates.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;

/** One probe run as its record tells it; throughputs in bytes/s. */
public record ProbeRun(OffsetDateTime at, String outcome, long bytes, @Schema(nullable = true) Double throughput,
                       @Schema(nullable = true) Double average12h, @Schema(nullable = true) String errorCode) {
}
