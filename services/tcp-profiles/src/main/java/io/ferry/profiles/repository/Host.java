package io.ferry.profiles.repository;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.OffsetDateTime;
import java.util.Map;
import java.util.TreeMap;

/** A data-moving host of a site: a disk server, a gridftp/xrootd/WebDAV door, a perfSONAR box. */
@Entity
@Table(name = "host")
public class Host extends PanacheEntityBase {

    @Id
    public String name;

    public String site;

    @Column(name = "storage_element")
    public String storageElement;

    @Column(name = "nic_speed_mbps")
    public int nicSpeedMbps;

    public int mtu;

    public String kernel;

    @JdbcTypeCode(SqlTypes.JSON)
    public Map<String, String> labels = new TreeMap<>();

    @Column(name = "created_at", insertable = false, updatable = false)
    public OffsetDateTime createdAt;

    @Column(name = "updated_at")
    public OffsetDateTime updatedAt;

    @Column(name = "updated_by")
    public String updatedBy;

    @Version
    public long version;
}
