package io.ferry.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.util.List;
import java.util.Map;

/**
 * An RFC 7807 problem document. {@code code} is Ferry's stable, machine-readable error code
 * (clients branch on it, never on {@code detail}); {@code errors} names the offending fields of a 400/422.
 * Registered for reflection: exception mappers answer it as an entity no resource method declares, which a native
 * executable would otherwise serialize as {@code {}}.
 */
@RegisterForReflection(targets = {Problem.class, Problem.FieldError.class})
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Problem(String type, String title, int status, String detail, String instance, String code,
                      List<FieldError> errors, Map<String, Object> context) {

    public static final String MEDIA_TYPE = "application/problem+json";

    /**
     * The attribute of an authentication failure ({@code AuthenticationFailedException}) holding the problem to
     * answer it with: an authentication mechanism that knows why it refused (an expired token, a revoked proxy)
     * says so there, and the 401 carries its code and detail instead of the generic one.
     */
    public static final String AUTHENTICATION_FAILURE_ATTRIBUTE = "problem";

    /** One offending input: where it is (a JSON path or parameter name) and what is wrong with it. */
    public record FieldError(String field, String message) {
    }

    public static Problem of(int status, String code, String detail) {
        return new Problem(typeFor(code), titleFor(status), status, detail, null, code, List.of(), Map.of());
    }

    public Problem withErrors(List<FieldError> fieldErrors) {
        return new Problem(type, title, status, detail, instance, code, fieldErrors, context);
    }

    public Problem withContext(Map<String, Object> extra) {
        return new Problem(type, title, status, detail, instance, code, errors, extra);
    }

    public Problem atInstance(String path) {
        return new Problem(type, title, status, detail, path, code, errors, context);
    }

    /** The problem an authentication failure carries, if its mechanism gave one. */
    static Problem carriedBy(io.quarkus.security.AuthenticationFailedException e) {
        return e.getAttribute(AUTHENTICATION_FAILURE_ATTRIBUTE) instanceof Problem p && p.status() == 401 ? p : null;
    }

    static String typeFor(String code) {
        return "https://ferry.io/problems/" + code.toLowerCase().replace('_', '-');
    }

    /** The code of a problem that only has its status to go by (a framework's failure rather than Ferry's own). */
    static String codeFor(int status) {
        return switch (status) {
            case 401 -> "UNAUTHENTICATED";
            case 403 -> "FORBIDDEN";
            case 404 -> "NOT_FOUND";
            case 405 -> "METHOD_NOT_ALLOWED";
            case 406 -> "NOT_ACCEPTABLE";
            case 413 -> "BODY_TOO_LARGE";
            case 414 -> "URI_TOO_LONG";
            case 415 -> "UNSUPPORTED_MEDIA_TYPE";
            case 431 -> "HEADERS_TOO_LARGE";
            default -> status >= 500 ? "INTERNAL_ERROR" : "BAD_REQUEST";
        };
    }

    static String titleFor(int status) {
        return switch (status) {
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 406 -> "Not Acceptable";
            case 409 -> "Conflict";
            case 410 -> "Gone";
            case 413 -> "Payload Too Large";
            case 414 -> "URI Too Long";
            case 415 -> "Unsupported Media Type";
            case 422 -> "Unprocessable Entity";
            case 429 -> "Too Many Requests";
            case 431 -> "Request Header Fields Too Large";
            case 503 -> "Service Unavailable";
            default -> status >= 500 ? "Internal Server Error" : "Error";
        };
    }
}
