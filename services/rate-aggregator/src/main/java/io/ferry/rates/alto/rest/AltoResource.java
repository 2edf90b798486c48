package io.ferry.rates.alto.rest;

import io.ferry.rates.alto.AltoMaps;
import io.ferry.rates.alto.AltoMetric;
import io.ferry.rates.alto.api.AltoMediaTypes;
import io.ferry.rates.alto.api.CostMap;
import io.ferry.rates.alto.api.NetworkMap;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import io.ferry.rates.alto.api.AltoError;
import io.ferry.rates.alto.api.CostMapFilter;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * The ALTO server face (RFC 7285, docs/alto.md): reads, anonymous like the aggregator's other monitoring reads.
 * Each resource produces its own media type only, so an Accept header that names neither it nor a wildcard is 406;
 * faults in a request are {@code application/alto-error+json} ({@link AltoErrorMapper}).
 */
@Path("/alto")
public class AltoResource {

    final AltoMaps maps;
    final AltoDirectory directory;

    @Inject
    public AltoResource(AltoMaps maps, AltoDirectory directory) {
        this.maps = maps;
        this.directory = directory;
    }

    /** The information resource directory (§9). */
    @GET
    @Produces(AltoMediaTypes.DIRECTORY)
    public io.ferry.rates.alto.api.Directory directory(@jakarta.ws.rs.core.Context jakarta.ws.rs.core.UriInfo uri) {
        return directory.of(uri.getBaseUri());
    }

    /** The network map (§11.2.1): one PID per SE. */
    @GET
    @Path("networkmap")
    @Produces(AltoMediaTypes.NETWORK_MAP)
    public Uni<NetworkMap> networkMap() {
        return maps.networkMap();
    }

    /** A full cost map (§11.2.3): {@code routingcost} or {@code throughput}, numerical. */
    @GET
    @Path("costmap/num/{metric}")
    @Produces(AltoMediaTypes.COST_MAP)
    public Uni<CostMap> costMap(@PathParam("metric") @Parameter(schema = @Schema(type = SchemaType.STRING,
            enumeration = {"routingcost", "throughput"})) String metric) {
        AltoMetric m = AltoMetric.byPath(metric);
        if (m == null) {
            throw new NotFoundException("no cost map " + metric);
        }
        return maps.costMap(m);
    }

    /** The filtered cost map (§11.3.2): a cost type, optionally source and destination PIDs and constraints. */
    @POST
    @Path("costmap/filtered")
    @Consumes(AltoMediaTypes.COST_MAP_FILTER)
    @Produces(AltoMediaTypes.COST_MAP)
    @APIResponse(responseCode = "200", description = "the costs of the requested PIDs the map defines and prices",
            content = @Content(mediaType = AltoMediaTypes.COST_MAP, schema = @Schema(implementation = CostMap.class)))
    @APIResponse(responseCode = "400", description = "a fault in the request, named by its ALTO code and field",
            content = @Content(mediaType = AltoMediaTypes.ERROR, schema = @Schema(implementation = AltoError.class)))
    @APIResponse(responseCode = "413", description = "a body above ferry.rates.alto.max-request-bytes",
            content = @Content(mediaType = AltoMediaTypes.ERROR, schema = @Schema(implementation = AltoError.class)))
    public Uni<CostMap> filteredCostMap(@RequestBody(required = true, content = @Content(mediaType = AltoMediaTypes.COST_MAP_FILTER,
            schema = @Schema(implementation = CostMapFilter.class))) byte[] body) {
        return maps.filteredCostMap(body);
    }
}
