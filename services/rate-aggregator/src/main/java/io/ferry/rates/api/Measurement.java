package io.ferry.rates.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;

/**
 * A network test between two hosts or SEs, shaped after perfSONAR results: throughput in bit/s, RTT in
 * milliseconds, loss as a fraction (0..1, not percent), retransmitted segments.
 */
@JsonIgnoreProperties(ignoreUnknown = false)
public record Measurement(@NotBlank @Pattern(regexp = HOST, message = HOST_RULE) String source,
                          @NotBlank @Pattern(regexp = HOST, message = HOST_RULE) String destination,
                          @NotBlank @Pattern(regexp = "^[A-Za-z0-9][A-Za-z0-9_.:-]{0,49}$", message = "letters, digits, '_', '.', ':' and '-', at most 50") String tool, @NotNull OffsetDateTime time,
                          @Schema(nullable = true) @PositiveOrZero @DecimalMax("1.6e12") Double throughput_bps,
                          @Schema(nullable = true) @Positive @DecimalMax("10000") Double rtt_ms,
                          @Schema(nullable = true) @DecimalMin("0") @DecimalMax(value = "1", message = "is a fraction from 0 to 1, not a percentage") Double loss,
                          @Schema(nullable = true) @PositiveOrZero Long retransmits,
                          @Schema(nullable = true) @Min(1) @Max(128) Integer streams) {

    /** Host names, addresses and SE names: no markup, no control characters. */
    static final String HOST = "^[A-Za-z0-9][A-Za-z0-9_.:-]{0,252}$";
    static final String HOST_RULE = "a host or SE name: letters, digits, '_', '.', ':' and '-', at most 253";
}
