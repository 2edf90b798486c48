package io.ferry.rates.alto.rest;

import io.ferry.rates.alto.AltoMaps;
import io.ferry.rates.alto.AltoMetric;
import io.ferry.rates.alto.api.AltoMediaTypes;
import io.ferry.rates.alto.api.CostType;
import io.ferry.rates.alto.api.Directory;
import jakarta.enterprise.context.ApplicationScoped;

import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The IRD (RFC 7285 §9.2): the network map, a cost map per metric, the filtered cost map; URIs below the request's base. */
@ApplicationScoped
public class AltoDirectory {

    static final String FILTERED_ID = "ferry-filtered-cost-map";

    Directory of(URI base) {
        Map<String, CostType> costTypes = new LinkedHashMap<>();
        Map<String, Directory.Resource> resources = new LinkedHashMap<>();
        List<String> uses = List.of(AltoMaps.NETWORK_MAP_ID);
        resources.put(AltoMaps.NETWORK_MAP_ID, new Directory.Resource(uri(base, "alto/networkmap"), AltoMediaTypes.NETWORK_MAP, null, null, null));
        for (AltoMetric m : AltoMetric.values()) {
            costTypes.put(m.typeName, m.described());
            resources.put(m.resourceId, new Directory.Resource(uri(base, "alto/costmap/num/" + m.path), AltoMediaTypes.COST_MAP, null,
                    new Directory.Capabilities(List.of(m.typeName), null), uses));
        }
        List<String> allTypes = Arrays.stream(AltoMetric.values()).map(m -> m.typeName).toList();
        resources.put(FILTERED_ID, new Directory.Resource(uri(base, "alto/costmap/filtered"), AltoMediaTypes.COST_MAP,
                AltoMediaTypes.COST_MAP_FILTER, new Directory.Capabilities(allTypes, true), uses));
        return new Directory(new Directory.Meta(costTypes, AltoMaps.NETWORK_MAP_ID), resources);
    }

    private static String uri(URI base, String path) {
        return base.resolve(path).toString();
    }
}
