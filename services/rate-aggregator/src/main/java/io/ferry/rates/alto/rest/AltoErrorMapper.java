package io.ferry.rates.alto.rest;

import io.ferry.rates.alto.AltoException;
import io.ferry.rates.alto.api.AltoMediaTypes;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/** ALTO's own error document (RFC 7285 §8.5) replaces the problem document for faults in ALTO requests. */
public class AltoErrorMapper {

    @ServerExceptionMapper
    public Response altoError(AltoException e) {
        return Response.status(e.status()).type(AltoMediaTypes.ERROR).entity(e.body()).build();
    }
}
