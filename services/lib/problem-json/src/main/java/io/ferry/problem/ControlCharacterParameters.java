package io.ferry.problem;

import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The 400 for path and query values that hold characters no value of a service's API has (control characters, line
 * breaks): a service's request filter calls it with its own rule of what is acceptable, before any resource runs, so
 * such values never reach PostgreSQL (which cannot compare text with a NUL) or a rendered file.
 */
public final class ControlCharacterParameters {

    private ControlCharacterParameters() {
    }

    /** A 400 problem naming every offending parameter, or null when all of them are {@code acceptable}. */
    public static Response refusal(UriInfo uri, Predicate<String> acceptable) {
        List<Problem.FieldError> errors = new ArrayList<>();
        check(uri.getPathParameters(), acceptable, errors);
        check(uri.getQueryParameters(), acceptable, errors);
        if (errors.isEmpty()) {
            return null;
        }
        return Response.status(400).type(Problem.MEDIA_TYPE)
                .entity(Problem.of(400, "INVALID_INPUT", "parameters must not contain control characters").withErrors(errors)
                        .atInstance(uri.getPath()))
                .build();
    }

    private static void check(MultivaluedMap<String, String> values, Predicate<String> acceptable,
                              List<Problem.FieldError> errors) {
        for (Map.Entry<String, List<String>> e : values.entrySet()) {
            boolean badKey = !acceptable.test(e.getKey());
            if (badKey || e.getValue().stream().anyMatch(v -> v != null && !acceptable.test(v))) {
                errors.add(new Problem.FieldError(badKey ? "query" : e.getKey(), "must not contain control characters"));
            }
        }
    }
}
