package io.ferry.rates.api;

import java.util.List;

public record LatestMeasurements(String host, List<PeerLatest> peers) {
}
