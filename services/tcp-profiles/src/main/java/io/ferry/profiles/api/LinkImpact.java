package io.ferry.profiles.api;

import com.fasterxml.jackson.databind.JsonNode;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * {@code comparison} is passed through as rate-aggregator wrote it. Its schema is spelt out as an object because
 * SmallRye reads {@link JsonNode} (an {@code Iterable}) as an array.
 */
public record LinkImpact(String storageElement,
                         @Schema(type = SchemaType.OBJECT, implementation = Object.class, description = "rate-aggregator's before/after comparison")
                         JsonNode comparison) {
}
