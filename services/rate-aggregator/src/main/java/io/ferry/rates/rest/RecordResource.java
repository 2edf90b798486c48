package io.ferry.rates.rest;

import io.ferry.identity.model.FerryRoles;
import io.ferry.rates.api.Syntax;
import io.ferry.rates.api.IngestResult;
import io.ferry.rates.api.TransferRecord;
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
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

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
    @APIResponse(responseCode = "200", description = "every item taken",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = IngestResult.class)))
    @APIResponse(responseCode = "207", description = "some items rejected, each listed with its errors",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = IngestResult.class)))
    public Uni<Response> importCsv(String body,
                                   @jakarta.ws.rs.QueryParam("vo") @Parameter(required = true,
                                           schema = @Schema(type = SchemaType.STRING, pattern = Syntax.VO)) String vo,
                                   @jakarta.ws.rs.QueryParam("activity") String activity) {
        return csv.importCsv(body, vo, activity).map(r -> Response.status(r.rejected().isEmpty() ? 200 : 207).entity(r).build());
    }

    /** 200 when every item was taken (new or already known), 207 when some were rejected (listed per item). */
    @POST
    @RolesAllowed(FerryRoles.RATES_WRITE)
    @Consumes({MediaType.APPLICATION_JSON, NDJSON})
    @Produces(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "200", description = "every item taken",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = IngestResult.class)))
    @APIResponse(responseCode = "207", description = "some items rejected, each listed with its errors",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = IngestResult.class)))
    public Uni<Response> ingest(@RequestBody(required = true, content = {
            @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = TransferRecord[].class)),
            @Content(mediaType = NDJSON, schema = @Schema(type = SchemaType.STRING,
                    description = "one transfer record (a JSON object) per line"))}) byte[] body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType) {
        boolean ndjson = contentType != null && contentType.startsWith(NDJSON);
        return ingest.ingest(body, ndjson)
                .map(r -> Response.status(r.rejected().isEmpty() ? 200 : 207).entity(r).build());
    }
}
