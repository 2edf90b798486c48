package io.ferry.scheduler.repository;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import io.ferry.scheduler.model.StorageAccess;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.OffsetDateTime;
import java.util.Map;
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
}
