package io.ferry.profiles.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import com.fasterxml.jackson.databind.JsonNode;

public record LinkImpact(String storageElement, @Schema(type = SchemaType.OBJECT, description = "rate-aggregator's before/after comparison")
                         JsonNode comparison) {
}
