package io.ferry.rates.alto.api;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.util.List;
import java.util.Map;

/** RFC 7285 §11.2.1.6: PIDs, each with its endpoint address group (address type → prefixes). */
public record NetworkMap(Meta meta, @JsonProperty("network-map") Map<String, Map<String, List<String>>> networkMap) {

    public record Meta(VersionTag vtag) {
    }
}
