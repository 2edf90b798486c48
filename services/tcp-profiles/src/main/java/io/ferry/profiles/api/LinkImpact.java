package io.ferry.profiles.api;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

public record LinkImpact(String storageElement, @Schema(type = SchemaType.OBJECT, description = "rate-aggregator's before/after comparison")
                         JsonNode comparison) {
}
