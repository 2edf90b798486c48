package io.ferry.profiles.api;

import java.time.OffsetDateTime;
import java.util.Map;

/** A host as clients read it. */
public record HostView(String name, String site, String storageElement, String nicSpeed, int nicSpeedMbps, int mtu,
                       String kernel, Map<String, String> labels, OffsetDateTime updatedAt, String updatedBy,
                       long version) {
}
