package io.ferry.rates.rest;

import io.ferry.identity.model.FerryRoles;
import io.ferry.problem.ProblemException;
import io.ferry.rates.api.LatestMeasurements;
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
    public Uni<Response> ingest(String body) {
        return measurements.ingest(body).map(r -> Response.status(r.rejected().isEmpty() ? 200 : 207).entity(r).build());
    }

    @GET
    public Uni<List<io.ferry.rates.api.StoredMeasurement>> list(@QueryParam("source") String source, @QueryParam("destination") String destination,
                                                     @QueryParam("limit") Integer limit) {
        int n = limit == null ? 100 : limit;
        if (n < 1 || n > 10_000) {
            throw ProblemException.badRequest("limit", "between 1 and 10000");
        }
        return measurements.list(source, destination, n);
    }

    /** The latest measurement between {@code host} and each of its peers. */
    @GET
    @Path("latest")
    public Uni<LatestMeasurements> latest(@QueryParam("host") String host) {
        return measurements.latest(host);
    }
}
