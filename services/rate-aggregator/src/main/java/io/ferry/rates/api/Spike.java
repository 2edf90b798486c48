package io.ferry.rates.api;

import java.time.OffsetDateTime;

public record Spike(OffsetDateTime start, double rate, double rollingMedian, double factor) {
}
