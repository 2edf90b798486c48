package io.ferry.problem;

import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Refuses, with a 400 naming them, path and query values that hold characters no value of any service's API has:
 * control characters (C0, DEL, C1) and the Unicode line and paragraph separators. Such values would otherwise reach
 * PostgreSQL (which cannot compare text with a NUL), logs, or a rendered file as a line break. Runs before any
 * resource; each service's OpenAPI document states the rule as the {@link #PATTERN} of its string parameters.
 */
public class ControlCharacterParameters {

    /**
     * The characters refused, as the body of a regular expression's character class (the same in Java's and in
     * ECMA-262's syntax): services build their own documented patterns from it.
     */
    public static final String CHARACTERS = "\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029";

    /** What every string path and query parameter matches, as an OpenAPI (ECMA-262) pattern. */
    public static final String PATTERN = "^[^" + CHARACTERS + "]*$";

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

    public static boolean isControl(char c) {
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
    }

    public static boolean hasControl(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (isControl(s.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    private static void check(MultivaluedMap<String, String> values, List<Problem.FieldError> errors) {
        for (Map.Entry<String, List<String>> e : values.entrySet()) {
            boolean badKey = hasControl(e.getKey());
            if (badKey || e.getValue().stream().anyMatch(v -> v != null && hasControl(v))) {
                errors.add(new Problem.FieldError(badKey ? "query" : e.getKey(), "must not contain control characters"));
            }
        }
    }

    /** Gives every string path and query parameter of the document that states no pattern of its own {@link #PATTERN}. */
    static void document(OpenAPI openAPI) {
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        for (PathItem path : openAPI.getPaths().getPathItems().values()) {
            List<Parameter> shared = path.getParameters() == null ? List.of() : path.getParameters();
            shared.forEach(ControlCharacterParameters::constrain);
            if (path.getOperations() == null) {
                continue;
            }
            for (Operation operation : path.getOperations().values()) {
                List<Parameter> own = operation.getParameters() == null ? List.of() : operation.getParameters();
                own.forEach(ControlCharacterParameters::constrain);
                if (Stream.concat(shared.stream(), own.stream()).anyMatch(ControlCharacterParameters::checked)) {
                    refusalIsAProblem(operation);
                }
            }
        }
    }

    /**
     * An operation that documents its own 400 (the resolver's Handle.net API answers one in Handle.net's shape) may
     * also get this class's 400, a problem document: the 400 lists both.
     */
    private static void refusalIsAProblem(Operation operation) {
        APIResponse badRequest = operation.getResponses() == null ? null : operation.getResponses().getAPIResponse("400");
        if (badRequest == null || badRequest.getRef() != null) {
            // a shared response of the document's own, which states its media types itself
            return;
        }
        if (badRequest.getContent() == null) {
            badRequest.setContent(OASFactory.createContent());
        }
        if (badRequest.getContent().getMediaType(Problem.MEDIA_TYPE) == null) {
            badRequest.getContent().addMediaType(Problem.MEDIA_TYPE, OASFactory.createMediaType()
                    .schema(OASFactory.createSchema().ref("#/components/schemas/" + ProblemResponses.SCHEMA)));
        }
    }

    private static boolean checked(Parameter p) {
        return p.getIn() == Parameter.In.PATH || p.getIn() == Parameter.In.QUERY;
    }

    private static void constrain(Parameter p) {
        if (!checked(p)) {
            return;
        }
        Schema s = p.getSchema();
        if (s == null) {
            return;
        }
        if (s.getItems() != null && isString(s.getItems())) {
            s = s.getItems();
        }
        if (isString(s) && s.getPattern() == null && s.getEnumeration() == null && s.getRef() == null) {
            s.setPattern(PATTERN);
        }
    }

    private static boolean isString(Schema s) {
        return s.getType() != null && s.getType().contains(Schema.SchemaType.STRING);
    }
}
