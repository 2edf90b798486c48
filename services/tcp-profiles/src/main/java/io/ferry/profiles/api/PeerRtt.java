package io.ferry.profiles.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

public record PeerRtt(String peer, double rttMs, @Schema(nullable = true) Integer peerNicMbps) {
}
