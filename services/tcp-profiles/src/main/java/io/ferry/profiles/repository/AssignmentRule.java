package io.ferry.profiles.repository;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.hibernate.reactive.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

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

    /** The selector as JSON text: it may be a list, which the reactive driver's JSON decoding does not take. */
    @Column(name = "selector")
    public String selectorJson;

    @Column(name = "created_at")
    public OffsetDateTime createdAt;

    @Column(name = "created_by")
    public String createdBy;

    private static final ObjectMapper JSON = new ObjectMapper();

    public JsonNode selector() {
        try {
            return JSON.readTree(selectorJson);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("rule " + name + " holds a selector that is not JSON", e);
        }
    }

    public void selector(JsonNode selector) {
        selectorJson = selector.toString();
    }
}
