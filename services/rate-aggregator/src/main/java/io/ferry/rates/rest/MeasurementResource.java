package io.ferry.rates.rest;

import io.ferry.identity.model.FerryRoles;
import io.ferry.problem.ProblemException;
import io.ferry.rates.api.LatestMeasurements;
import io.ferry.rates.api.Syntax;
import io.ferry.rates.api.IngestResult;
import io.ferry.rates.api.Measurement;
import io.ferry.rates.service.MeasurementService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.util.List;

/** perfSONAR-style network measurements between hosts or SEs. */
@Path("/measurements")
@Produces(MediaType.APPLICATION_JSON)
public class MeasurementResource {

    final MeasurementService measurements;

    @Inject
    public MeasurementResource(MeasurementService measurements) {
        this.measurements = measurements;
    }

    @POST
    @RolesAllowed(FerryRoles.RATES_WRITE)
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "200", description = "every item taken",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = IngestResult.class)))
    @APIResponse(responseCode = "207", description = "some items rejected, each listed with its errors",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = IngestResult.class)))
    public Uni<Response> ingest(@RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(oneOf = {Measurement.class, Measurement[].class}))) String body) {
        return measurements.ingest(body).map(r -> Response.status(r.rejected().isEmpty() ? 200 : 207).entity(r).build());
    }

    @GET
    public Uni<List<io.ferry.rates.api.StoredMeasurement>> list(@QueryParam("source") String source, @QueryParam("destination") String destination,
                                                     @QueryParam("limit") @Parameter(allowEmptyValue = true,
                                                             schema = @Schema(type = SchemaType.INTEGER,
                                                             format = "int32", minimum = "1", maximum = "10000")) Integer limit) {
        int n = limit == null ? 100 : limit;
        if (n < 1 || n > 10_000) {
            throw ProblemException.badRequest("limit", "between 1 and 10000");
        }
        return measurements.list(source, destination, n);
    }

    /** The latest measurement between {@code host} and each of its peers. */
    @GET
    @Path("latest")
    public Uni<LatestMeasurements> latest(@QueryParam("host") @Parameter(required = true,
            schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NOT_BLANK)) String host) {
        return measurements.latest(host);
    }
}
