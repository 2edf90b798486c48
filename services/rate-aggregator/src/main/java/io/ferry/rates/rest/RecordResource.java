package io.ferry.rates.rest;

import io.ferry.identity.model.FerryRoles;
import io.ferry.rates.service.RecordIngest;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** {@code POST /records}: transfer records from transfer-scheduler's outbox or a site's own tools. */
@Path("/records")
public class RecordResource {

    public static final String NDJSON = "application/x-ndjson";

    final RecordIngest ingest;

    final io.ferry.rates.service.CsvImport csv;

    @Inject
    public RecordResource(RecordIngest ingest, io.ferry.rates.service.CsvImport csv) {
        this.ingest = ingest;
        this.csv = csv;
    }

    /** Historical transfer logs as CSV (see {@link io.ferry.rates.service.CsvImport} for the columns). */
    @POST
    @Path("csv")
    @RolesAllowed(FerryRoles.RATES_WRITE)
    @Consumes({"text/csv", MediaType.TEXT_PLAIN})
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> importCsv(String body, @jakarta.ws.rs.QueryParam("vo") String vo,
                                   @jakarta.ws.rs.QueryParam("activity") String activity) {
        return csv.importCsv(body, vo, activity).map(r -> Response.status(r.rejected().isEmpty() ? 200 : 207).entity(r).build());
    }

    /** 200 when every item was taken (new or already known), 207 when some were rejected (listed per item). */
    @POST
    @RolesAllowed(FerryRoles.RATES_WRITE)
    @Consumes({MediaType.APPLICATION_JSON, NDJSON})
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> ingest(byte[] body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType) {
        boolean ndjson = contentType != null && contentType.startsWith(NDJSON);
        return ingest.ingest(body, ndjson)
                .map(r -> Response.status(r.rejected().isEmpty() ? 200 : 207).entity(r).build());
    }
}
