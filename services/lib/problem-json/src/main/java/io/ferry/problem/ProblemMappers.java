package io.ferry.problem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Turns every failure that reaches the REST layer into {@code application/problem+json}.
 * Unexpected exceptions become a 500 that names no class and carries no stack trace; they are logged instead.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response problem(ProblemException e, UriInfo uri) {
        return render(e.problem(), uri);
    }

    @ServerExceptionMapper
    public Response invalid(ConstraintViolationException e, UriInfo uri) {
        List<Problem.FieldError> errors = e.getConstraintViolations().stream()
                .sorted(Comparator.comparing(v -> v.getPropertyPath().toString()))
                .map(v -> new Problem.FieldError(fieldName(v), v.getMessage()))
                .toList();
        String detail = errors.stream().map(f -> f.field() + " " + f.message()).collect(Collectors.joining("; "));
        return render(Problem.of(400, "INVALID_INPUT", detail).withErrors(errors), uri);
    }

    @ServerExceptionMapper
    public Response unreadable(JsonProcessingException e, UriInfo uri) {
        String field = e instanceof JsonMappingException m ? jsonPath(m) : "";
        String message = withoutPackages(e.getOriginalMessage());
        String detail = "request body is not valid JSON for this resource: " + message;
        Problem p = Problem.of(400, "MALFORMED_BODY", detail);
        if (!field.isEmpty()) {
            p = p.withErrors(List.of(new Problem.FieldError(field, message)));
        }
        return render(p, uri);
    }

    private static final java.util.regex.Pattern QUALIFIED_NAME =
            java.util.regex.Pattern.compile("\\b(?:[a-z_][a-z0-9_]*\\.)+([A-Z][A-Za-z0-9_$]*)");

    /**
     * Jackson's message with Java type names shortened to the class's own name ({@code StorageAccess.Rule} rather than
     * {@code io.ferry.scheduler.storage.StorageAccess$Rule}): a client learns which shape was expected, not how the
     * service's code is laid out.
     */
    static String withoutPackages(String message) {
        return message == null ? "" : QUALIFIED_NAME.matcher(message).replaceAll(m -> m.group(1).replace('$', '.'));
    }

    /** Quarkus maps this subclass itself, to a bare 400 without a body; a user mapper (priority 5000) wins over its 5100. */
    @ServerExceptionMapper
    public Response mismatched(MismatchedInputException e, UriInfo uri) {
        return unreadable(e, uri);
    }

    @ServerExceptionMapper
    public Response unauthenticated(UnauthorizedException e, UriInfo uri) {
        return unauthorized("a valid bearer token is required", uri);
    }

    @ServerExceptionMapper
    public Response authenticationFailed(AuthenticationFailedException e, UriInfo uri) {
        Problem carried = Problem.carriedBy(e);
        if (carried != null) {
            return Response.status(401).header(HttpHeaders.WWW_AUTHENTICATE, "Bearer").type(Problem.MEDIA_TYPE)
                    .entity(carried.atInstance(uri == null ? null : uri.getPath())).build();
        }
        return unauthorized("the bearer token is missing, malformed, expired or not signed by a trusted key", uri);
    }

    @ServerExceptionMapper
    public Response forbidden(ForbiddenException e, UriInfo uri) {
        return render(Problem.of(403, "FORBIDDEN", "the token lacks the scope, VO or site this request needs"), uri);
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, UriInfo uri) {
        // The JSON reader wraps parse failures in a 400; report them like any other unreadable body.
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof JsonProcessingException json) {
                return unreadable(json, uri);
            }
            if (c instanceof ProblemException p) {
                return render(p.problem(), uri);
            }
        }
        int status = e.getResponse().getStatus();
        if (status >= 500) {
            Problem database = DatabaseFailures.problemFor(e);
            if (database != null) {
                return database(database, e, uri);
            }
            LOG.error("request failed", e);
        }
        String code = Problem.codeFor(status);
        String detail = status >= 500 ? "the service failed to handle the request" : e.getMessage();
        return render(Problem.of(status, code, detail), uri);
    }

    @ServerExceptionMapper
    public Response unexpected(Exception e, UriInfo uri) {
        Problem database = DatabaseFailures.problemFor(e);
        if (database != null) {
            return database(database, e, uri);
        }
        LOG.error("unexpected failure", e);
        return render(Problem.of(500, "INTERNAL_ERROR", "the service failed to handle the request"), uri);
    }

    static Response unauthorized(String detail, UriInfo uri) {
        return Response.status(401)
                .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                .type(Problem.MEDIA_TYPE)
                .entity(Problem.of(401, "UNAUTHENTICATED", detail).atInstance(uri.getPath()))
                .build();
    }

    static Response render(Problem problem, UriInfo uri) {
        Response.ResponseBuilder r = Response.status(problem.status())
                .type(Problem.MEDIA_TYPE)
                .entity(problem.atInstance(uri == null ? null : uri.getPath()));
        if (problem.status() == 503) {
            r.header(HttpHeaders.RETRY_AFTER, DatabaseFailures.RETRY_AFTER_SECONDS);
        }
        return r.build();
    }

    /** A database failure that is not the service's fault: logged in one line, no stack trace (there may be thousands). */
    private static Response database(Problem problem, Throwable e, UriInfo uri) {
        if (problem.status() >= 500) {
            LOG.warnf("database unavailable: %s", rootMessage(e));
        }
        return render(problem, uri);
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        for (int i = 0; i < 30 && root.getCause() != null && root.getCause() != root; i++) {
            root = root.getCause();
        }
        return root.getClass().getName() + ": " + root.getMessage();
    }

    /** A method-parameter violation reads "create.arg0.name": keep what a client can recognise. */
    private static String fieldName(ConstraintViolation<?> v) {
        String path = v.getPropertyPath().toString();
        int firstDot = path.indexOf('.');
        int secondDot = firstDot < 0 ? -1 : path.indexOf('.', firstDot + 1);
        return secondDot < 0 ? (firstDot < 0 ? path : path.substring(firstDot + 1)) : path.substring(secondDot + 1);
    }

    private static String jsonPath(JsonMappingException e) {
        return e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining(".")).replace(".[", "[");
    }
}
