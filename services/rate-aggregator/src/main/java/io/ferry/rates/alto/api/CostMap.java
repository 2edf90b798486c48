package io.ferry.rates.alto.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/** RFC 7285 §11.2.3.6: costs from source PID to destination PID, with the network map version they refer to. */
@Schema(name = "AltoCostMap")
public record CostMap(Meta meta, @JsonProperty("cost-map") Map<String, Map<String, Double>> costMap) {

    @Schema(name = "AltoCostMapMeta")
    public record Meta(@JsonProperty("dependent-vtags") List<VersionTag> dependentVtags, @JsonProperty("cost-type") CostType costType) {
    }
}
