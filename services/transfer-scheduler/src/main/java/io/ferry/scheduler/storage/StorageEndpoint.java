package io.ferry.scheduler.storage;

import io.ferry.storageurl.StorageUrl;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** A registered storage element: its site, where it is reachable per protocol, which VOs may use it, and its concurrency caps. */
@Entity
@Table(name = "storage_endpoint")
public class StorageEndpoint extends PanacheEntityBase {

    @Id
    public String name;

    public String site;

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "base_urls")
    public Map<String, String> baseUrls = new TreeMap<>();

    @JdbcTypeCode(SqlTypes.JSON)
    @Column(name = "access")
    public StorageAccess access = StorageAccess.CLOSED;

    @Column(name = "needs_prepare")
    public boolean needsPrepare;

    @Column(name = "third_party_copy")
    public boolean thirdPartyCopy;

    /** Whether Ferry's own storage identity may be used toward this SE for files that bring no credential for it. */
    @Column(name = "allow_service_identity")
    public boolean allowServiceIdentity = true;

    @Column(name = "inbound_max_active")
    public int inboundMaxActive;

    @Column(name = "outbound_max_active")
    public int outboundMaxActive;

    @Column(name = "updated_at")
    public OffsetDateTime updatedAt;

    @Column(name = "updated_by")
    public String updatedBy;

    /** The SE names {@code se} stands for: itself, or (FTS3's {@code scheme://host}) each SE with a base URL at that host. */
    public static List<String> seNames(String se, List<StorageEndpoint> endpoints) {
        if (!se.contains("://")) {
            return List.of(se);
        }
        Optional<StorageUrl> wanted = StorageUrl.tryParse(se);
        List<String> names = new ArrayList<>();
        wanted.ifPresent(w -> endpoints.forEach(e -> {
            boolean there = e.baseUrls.values().stream().map(StorageUrl::tryParse).flatMap(Optional::stream)
                    .anyMatch(b -> b.scheme().equals(w.scheme()) && b.host().equals(w.host()) && b.effectivePort() == w.effectivePort());
            if (there) {
                names.add(e.name);
            }
        }));
        // "in ()" is no valid query: a name no SE has matches nothing
        return names.isEmpty() ? List.of(se) : names;
    }
}
