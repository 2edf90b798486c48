package io.ferry.profiles.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;
import java.util.Map;

/** A host as clients read it. */
public record HostView(String name, String site, @Schema(nullable = true) String storageElement, String nicSpeed,
                       int nicSpeedMbps, int mtu, @Schema(nullable = true) String kernel, Map<String, String> labels,
                       OffsetDateTime updatedAt, String updatedBy, long version) {
}
