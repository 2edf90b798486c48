package io.ferry.resolver.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** What the resolver knows of the SEs and how fresh it is ({@code live}, {@code cached}, {@code stale}, {@code unavailable}). */
public record StorageElementSnapshot(List<StorageEndpoint> endpoints, Instant fetchedAt, String basis, @Schema(nullable = true) String error) {
    public Optional<StorageEndpoint> find(String name) {
        return endpoints.stream().filter(se -> se.name().equals(name)).findFirst();
    }
}
