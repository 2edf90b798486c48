package io.ferry.profiles.repository;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import org.hibernate.annotations.JdbcTypeCode;
import org.hibernate.type.SqlTypes;

import java.time.OffsetDateTime;
import java.util.Map;

/** What a host reported it runs at one moment. */
@Entity
@Table(name = "host_observation")
public class HostObservation extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String host;

    @Column(name = "observed_at")
    public OffsetDateTime observedAt;

    @JdbcTypeCode(SqlTypes.JSON)
    public Map<String, String> sysctls;

    @JdbcTypeCode(SqlTypes.JSON)
    public Map<String, Map<String, Integer>> interfaces;

    @Column(name = "raw_sysctl")
    public String rawSysctl;

    @Column(name = "raw_ip_link")
    public String rawIpLink;

    @Column(name = "received_at", insertable = false, updatable = false)
    public OffsetDateTime receivedAt;

    @Column(name = "received_by")
    public String receivedBy;
}
