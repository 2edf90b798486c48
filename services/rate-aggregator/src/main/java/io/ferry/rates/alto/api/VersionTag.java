package io.ferry.rates.alto.api;

import com.fasterxml.jackson.annotation.JsonProperty;

/** RFC 7285 §10.3: which version of a resource a document is, or depends on. */
public record VersionTag(@JsonProperty("resource-id") String resourceId, String tag) {
}
