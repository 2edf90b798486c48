package io.ferry.rates.api;

import java.time.OffsetDateTime;

/** {@code truncated}: more finished transfers lie in the range than one answer reads; the fit is of the first ones. */
public record Regression(String source, String destination, OffsetDateTime from, OffsetDateTime to, int n,
                         double bytesPerSecond, double r2, double intercept, long totalBytes, boolean truncated) {
}
