package io.ferry.profiles.api;

import io.ferry.profiles.model.Recommendation;
import java.util.List;

public record HostRecommendation(String host, String rttBasis, List<PeerRtt> peers, Recommendation recommendation) {
}
