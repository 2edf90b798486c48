package io.ferry.profiles.repository;

import com.fasterxml.jackson.databind.JsonNode;
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

/** Assigns {@link #profile} to the hosts its selector matches; a site rule only sees its site's hosts. */
@Entity
@Table(name = "assignment_rule")
public class AssignmentRule extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    public String name;

    public String profile;

    public int priority;

    public String site;

    @JdbcTypeCode(SqlTypes.JSON)
    public JsonNode selector;

    @Column(name = "created_at")
    public OffsetDateTime createdAt;

    @Column(name = "created_by")
    public String createdBy;
}
