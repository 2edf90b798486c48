package io.ferry.profiles.rest;

import io.ferry.profiles.model.NicSpeed;
import io.ferry.profiles.repository.Host;

import java.time.OffsetDateTime;
import java.util.Map;

/** A host as clients read it. */
public record HostView(String name, String site, String storageElement, String nicSpeed, int nicSpeedMbps, int mtu,
                       String kernel, Map<String, String> labels, OffsetDateTime updatedAt, String updatedBy,
                       long version) {

    static HostView of(Host h) {
        return new HostView(h.name, h.site, h.storageElement, NicSpeed.format(h.nicSpeedMbps), h.nicSpeedMbps, h.mtu,
                h.kernel, h.labels, h.updatedAt, h.updatedBy, h.version);
    }
}
