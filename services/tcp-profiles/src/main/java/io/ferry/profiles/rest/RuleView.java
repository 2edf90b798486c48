package io.ferry.profiles.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.profiles.repository.AssignmentRule;

import java.time.OffsetDateTime;

public record RuleView(String name, String profile, int priority, String site, JsonNode match, OffsetDateTime createdAt,
                       String createdBy) {

    public static RuleView of(AssignmentRule r) {
        return new RuleView(r.name, r.profile, r.priority, r.site, r.selector(), r.createdAt, r.createdBy);
    }
}
