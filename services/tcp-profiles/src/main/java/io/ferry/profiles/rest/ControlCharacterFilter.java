package io.ferry.profiles.rest;

import io.ferry.problem.ControlCharacterParameters;
import io.ferry.profiles.model.ConfigText;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Refuses path and query values that are not single lines: no name, time or comment of this API has a line break (a
 * rollback's comment goes into the profile's history, and from there into rendered files).
 */
public class ControlCharacterFilter {

    @ServerRequestFilter
    public Response refuse(UriInfo uri) {
        return ControlCharacterParameters.refusal(uri, ConfigText::isSingleLine);
    }
}
