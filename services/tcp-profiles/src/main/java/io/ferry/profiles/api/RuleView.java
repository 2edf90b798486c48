package io.ferry.profiles.api;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;

public record RuleView(String name, String profile, int priority, @Schema(nullable = true) String site,
                       @Schema(ref = "#/components/schemas/Selector") JsonNode match, OffsetDateTime createdAt,
                       String createdBy) {
}
