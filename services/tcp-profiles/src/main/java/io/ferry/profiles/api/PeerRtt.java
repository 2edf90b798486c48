package io.ferry.profiles.api;

public record PeerRtt(String peer, double rttMs, Integer peerNicMbps) {
}
