package io.ferry.profiles.api;

import com.fasterxml.jackson.databind.JsonNode;

public record LinkImpact(String storageElement, JsonNode comparison) {
}
