package io.ferry.profiles.rest;

import io.ferry.problem.Problem;
import io.ferry.profiles.model.ConfigText;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Refuses path and query values holding control characters before a resource sees them: no name, time or comment of
 * this API has one (a rollback's comment goes into the profile's history), and PostgreSQL cannot even compare text
 * with a NUL in it (a 500 otherwise).
 */
public class ControlCharacterFilter {

    @ServerRequestFilter
    public Response refuse(UriInfo uri) {
        List<Problem.FieldError> errors = new ArrayList<>();
        check(uri.getPathParameters(), errors);
        check(uri.getQueryParameters(), errors);
        if (errors.isEmpty()) {
            return null;
        }
        return Response.status(400).type(Problem.MEDIA_TYPE)
                .entity(Problem.of(400, "INVALID_INPUT", "parameters must not contain control characters").withErrors(errors)
                        .atInstance(uri.getPath()))
                .build();
    }

    private static void check(MultivaluedMap<String, String> values, List<Problem.FieldError> errors) {
        for (Map.Entry<String, List<String>> e : values.entrySet()) {
            boolean badKey = !ConfigText.isSingleLine(e.getKey());
            if (badKey || e.getValue().stream().anyMatch(v -> v != null && !ConfigText.isSingleLine(v))) {
                errors.add(new Problem.FieldError(badKey ? "query" : e.getKey(), "must not contain control characters"));
            }
        }
    }
}
