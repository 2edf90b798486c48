package io.ferry.profiles.api;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.OffsetDateTime;

public record RuleView(String name, String profile, int priority, String site, JsonNode match, OffsetDateTime createdAt,
                       String createdBy) {
}
