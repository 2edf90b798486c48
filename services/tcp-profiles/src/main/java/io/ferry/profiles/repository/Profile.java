package io.ferry.profiles.repository;

import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.OffsetDateTime;

/** A named profile; its settings live in its versions. */
@Entity
@Table(name = "profile")
public class Profile extends PanacheEntityBase {

    @Id
    public String name;

    /** Null for a global profile. */
    public String site;

    @Column(name = "current_version")
    public int currentVersion;

    @Column(name = "created_at")
    public OffsetDateTime createdAt;

    @Column(name = "created_by")
    public String createdBy;
}
