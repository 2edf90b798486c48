package io.ferry.scheduler.monitor;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/**
 * FTS3's web monitor address, {@code /fts3/ftsmon/#/job/<id>}, as Rucio links every transfer to it (its transfertool
 * builds the link from the FTS3 host, port 8446 turned into 8449): sent on to Ferry's monitor, whose {@code #/job/<id>}
 * route is the same, the browser keeping the fragment across the redirect (RFC 9110, 10.2.2). One method answers
 * with and without the trailing slash (the REST layer matches both).
 */
@Path("/fts3/ftsmon")
@PermitAll
public class FtsMonitorLinks {

    @GET
    @APIResponse(responseCode = "302", description = "Sent on to the monitor", headers = @Header(name = "Location", schema = @Schema(type = SchemaType.STRING)))
    @APIResponse(responseCode = "200", description = "The monitor's page, to a client that follows the redirect", content = @Content(mediaType = "text/html"))
    public Response monitor() {
        return Response.status(Response.Status.FOUND).header("Location", "/monitor/").build();
    }
}
