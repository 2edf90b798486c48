package io.ferry.rates.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;

public record Side(int n, @Schema(nullable = true) Double average, @Schema(nullable = true) Double peak, OffsetDateTime from,
                   OffsetDateTime to) {
}
