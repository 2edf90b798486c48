package io.ferry.scheduler.monitor;

import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

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
    public Response monitor() {
        return Response.status(Response.Status.FOUND).header("Location", "/monitor/").build();
    }
}
