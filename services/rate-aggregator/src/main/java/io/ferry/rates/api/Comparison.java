package io.ferry.rates.api;

import java.time.OffsetDateTime;

/**
 * {@code truncated}: a side held more transfers than one answer reads (or the SE or site more links), so each side
 * is the transfers nearest to {@code at}.
 */
public record Comparison(String scope, OffsetDateTime at, String window, Side before, Side after, Double ratio,
                         double mannWhitneyU, double z, double pValue, String verdict, boolean truncated) {
}
