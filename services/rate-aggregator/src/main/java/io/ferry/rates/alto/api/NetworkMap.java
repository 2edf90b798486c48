package io.ferry.rates.alto.api;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/** RFC 7285 §11.2.1.6: PIDs, each with its endpoint address group (address type → prefixes). */
@Schema(name = "AltoNetworkMap")
public record NetworkMap(Meta meta, @JsonProperty("network-map") Map<String, Map<String, List<String>>> networkMap) {

    @Schema(name = "AltoNetworkMapMeta")
    public record Meta(VersionTag vtag) {
    }
}
