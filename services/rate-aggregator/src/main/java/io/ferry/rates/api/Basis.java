package io.ferry.rates.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

public record Basis(String source, long samples, String window, @Schema(nullable = true) String note) {
}
