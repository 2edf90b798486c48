package io.ferry.resolver.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import java.util.List;

public record RankedReplicas(String id, String handle, List<String> names, @Schema(nullable = true) String destination, String protocol, long filesize,
                     String rankedBy, String catalogue, List<Replica> replicas) {
}
