package io.ferry.rates.alto.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** RFC 7285 §10.7: a cost metric in a cost mode; the description only in the directory. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "AltoCostType")
public record CostType(@JsonProperty("cost-mode") String costMode, @JsonProperty("cost-metric") String costMetric, String description) {
}
