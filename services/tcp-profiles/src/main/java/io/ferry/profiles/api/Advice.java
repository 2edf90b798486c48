package io.ferry.profiles.api;

import java.util.List;

public record Advice(int streams, long bdpBytes, long windowBytes, double rttMs, String rttBasis, End source,
                     End destination, List<String> reasoning) {
}
