package io.ferry.scheduler.storage;


import java.time.OffsetDateTime;
import java.util.Map;

/** An SE as clients (and handle-resolver's SE catalogue) read it, with its per-VO rights. */
public record StorageEndpointView(String name, String site, Map<String, String> baseUrls, StorageAccess access, boolean needsPrepare,
                                  boolean thirdPartyCopy, int inboundMaxActive, int outboundMaxActive,
                                  OffsetDateTime updatedAt, String updatedBy, boolean allowServiceIdentity) {

    static StorageEndpointView of(StorageEndpoint se) {
        return new StorageEndpointView(se.name, se.site, se.baseUrls,
                se.access == null ? StorageAccess.CLOSED : se.access, se.needsPrepare, se.thirdPartyCopy,
                se.inboundMaxActive, se.outboundMaxActive, se.updatedAt, se.updatedBy, se.allowServiceIdentity);
    }
}
