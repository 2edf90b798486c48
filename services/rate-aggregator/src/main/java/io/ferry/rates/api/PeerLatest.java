package io.ferry.rates.api;

import java.time.OffsetDateTime;

public record PeerLatest(String peer, Double rtt_ms, Double throughput_bps, OffsetDateTime measured_at, String tool) {
}
