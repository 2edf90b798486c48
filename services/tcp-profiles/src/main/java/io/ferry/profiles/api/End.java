package io.ferry.profiles.api;

import java.util.List;

public record End(String storageElement, String host, List<String> hosts, int nicMbps, long windowBytes, String windowBasis) {
}
