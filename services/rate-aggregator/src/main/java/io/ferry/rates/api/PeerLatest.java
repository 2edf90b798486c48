package io.ferry.rates.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;

public record PeerLatest(String peer, @Schema(nullable = true) Double rtt_ms, @Schema(nullable = true) Double throughput_bps,
                         OffsetDateTime measured_at, String tool) {
}
