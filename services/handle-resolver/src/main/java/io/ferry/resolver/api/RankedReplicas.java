package io.ferry.resolver.api;

import java.util.List;

public record RankedReplicas(String id, String handle, List<String> names, String destination, String protocol, long filesize,
                     String rankedBy, String catalogue, List<Replica> replicas) {
}
