package io.ferry.scheduler.links;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;

import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Objects;

/** How a link (source SE -> destination SE) may be driven: active transfer bounds, streams, optimizer mode, rate cap. */
@Entity
@Table(name = "link_config")
@IdClass(LinkConfig.Key.class)
public class LinkConfig extends PanacheEntityBase {

    public static class Key implements Serializable {
        public String sourceSe;
        public String destSe;

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(k.sourceSe, sourceSe) && Objects.equals(k.destSe, destSe);
        }

        @Override
        public int hashCode() {
            return Objects.hash(sourceSe, destSe);
        }
    }

    @Id
    @Column(name = "source_se")
    public String sourceSe;

    @Id
    @Column(name = "dest_se")
    public String destSe;

    @Column(name = "min_active")
    public int minActive;

    @Column(name = "max_active")
    public int maxActive;

    /** Null: ask tcp-profiles. */
    public Integer nostreams;

    /** Bytes per second all the link's copies together may move (null: no cap). */
    @Column(name = "max_rate")
    public Long maxRate;

    @Column(name = "optimizer_mode")
    public String optimizerMode;

    @Column(name = "updated_at")
    public OffsetDateTime updatedAt;

    @Column(name = "updated_by")
    public String updatedBy;
}
