package io.ferry.rates.rest;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;

import java.time.OffsetDateTime;

/**
 * A network test between two hosts or SEs, shaped after perfSONAR results: throughput in bit/s, RTT in
 * milliseconds, loss as a fraction (0..1, not percent), retransmitted segments.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record Measurement(@NotBlank @Size(max = 253) String source, @NotBlank @Size(max = 253) String destination,
                          @NotBlank @Size(max = 50) String tool, @NotNull OffsetDateTime time,
                          @PositiveOrZero @DecimalMax("1.6e12") Double throughput_bps,
                          @Positive @DecimalMax("10000") Double rtt_ms,
                          @DecimalMin("0") @DecimalMax(value = "1", message = "is a fraction from 0 to 1, not a percentage") Double loss,
                          @PositiveOrZero Long retransmits, @Min(1) @Max(128) Integer streams) {
}
