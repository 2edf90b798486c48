package io.ferry.rates.alto.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.util.List;
import java.util.Map;

/** RFC 7285 §9.2: the information resource directory (IRD). */
@Schema(name = "AltoDirectory")
public record Directory(Meta meta, Map<String, Resource> resources) {

    @Schema(name = "AltoDirectoryMeta")
    public record Meta(@JsonProperty("cost-types") Map<String, CostType> costTypes,
                       @JsonProperty("default-alto-network-map") String defaultNetworkMap) {
    }

    /** §9.2.2: where a resource is, what it answers and takes, and which resources it depends on. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "AltoResource")
    public record Resource(String uri, @JsonProperty("media-type") String mediaType, String accepts,
                           Capabilities capabilities, List<String> uses) {
    }

    /** §11.2.3.4 and §11.3.2.4. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @Schema(name = "AltoCapabilities")
    public record Capabilities(@JsonProperty("cost-type-names") List<String> costTypeNames,
                               @JsonProperty("cost-constraints") Boolean costConstraints) {
    }
}
