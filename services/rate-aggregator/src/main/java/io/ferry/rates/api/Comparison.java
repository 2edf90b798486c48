package io.ferry.rates.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;

/**
 * {@code truncated}: a side held more transfers than one answer reads (or the SE or site more links), so each side
 * is the transfers nearest to {@code at}.
 */
public record Comparison(String scope, OffsetDateTime at, String window, Side before, Side after,
                         @Schema(nullable = true) Double ratio,
                         double mannWhitneyU, double z, double pValue, String verdict, boolean truncated) {
}
