package io.ferry.rates.alto.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** RFC 7285 §10.3: which version of a resource a document is, or depends on. */
@Schema(name = "AltoVersionTag")
public record VersionTag(@JsonProperty("resource-id") String resourceId, String tag) {
}
