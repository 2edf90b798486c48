package io.ferry.resolver.rest;

import io.ferry.resolver.api.HandleResponse;
import io.ferry.resolver.model.HandleException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** Handle failures answer in Handle.net's shape and with its HTTP status. */
public class HandleExceptionMapper {

    @ServerExceptionMapper
    public Response handle(HandleException e) {
        Response.ResponseBuilder r = Response.status(e.httpStatus()).type(MediaType.APPLICATION_JSON)
                .entity(HandleResponse.error(e.responseCode(), e.httpStatus(), e.handle(), e.getMessage()));
        if (e.httpStatus() == 401) {
            // a token, or Handle.net's secret key over Basic (realm as CNRI's server names it)
            r.header("WWW-Authenticate", "Bearer");
            r.header("WWW-Authenticate", "Basic realm=\"handle\"");
        }
        return r.build();
    }
}
