package io.ferry.rates.api;

import java.time.OffsetDateTime;

/** One probe run as its record tells it; throughputs in bytes/s. */
public record ProbeRun(OffsetDateTime at, String outcome, long bytes, Double throughput, Double average12h, String errorCode) {
}
