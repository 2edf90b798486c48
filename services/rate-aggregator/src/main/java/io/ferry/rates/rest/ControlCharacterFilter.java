package io.ferry.rates.rest;

import io.ferry.problem.ControlCharacterParameters;
import io.ferry.rates.model.Names;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/** Refuses path and query values holding control characters: no name, time or span of this API has one. */
public class ControlCharacterFilter {

    @ServerRequestFilter
    public Response refuse(UriInfo uri) {
        return ControlCharacterParameters.refusal(uri, value -> !Names.hasControl(value));
    }
}
