package io.ferry.cli.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A service's error answer (RFC 7807 problem+json, an ALTO error, or whatever else it sent), read as one line for people:
 * {@code 400 INVALID_JOB: 2 problem(s) with the submission; nothing was stored [files[0].checksum: expected ADLER32:<1 to 8 hex digits> or MD5:<32 hex digits>, or the algorithm alone]}.
 */
public final class ApiProblem extends RuntimeException {

    private final int status;
    private final JsonNode problem;

    public ApiProblem(int status, JsonNode problem, String line) {
        super(line);
        this.status = status;
        this.problem = problem;
    }

    public int status() {
        return status;
    }

    /** The problem document, or null when the answer was not JSON. */
    public JsonNode problem() {
        return problem;
    }

    /** The one line of an answer with {@code status}: the problem's fields if it is one, else its first text. */
    public static ApiProblem of(String method, String url, int status, JsonNode parsed, String body) {
        if (parsed == null || !parsed.isObject()) {
            String text = body == null ? "" : body.strip().lines().findFirst().orElse("");
            return new ApiProblem(status, null, status + " from " + method + " " + url + (text.isEmpty() ? "" : ": " + abbreviate(text)));
        }
        if (parsed.path("meta").path("code").isTextual()) {
            return new ApiProblem(status, parsed, status + " " + altoError(parsed.path("meta")));
        }
        StringBuilder line = new StringBuilder().append(parsed.path("status").asInt(status));
        String code = parsed.path("code").asText(parsed.path("title").asText(""));
        if (!code.isEmpty()) {
            line.append(' ').append(code);
        }
        String detail = parsed.path("detail").asText(parsed.path("message").asText(""));
        if (!detail.isEmpty()) {
            line.append(": ").append(detail);
        }
        List<String> fields = new ArrayList<>();
        for (JsonNode e : parsed.path("errors")) {
            fields.add(e.path("field").asText() + ": " + e.path("message").asText());
        }
        if (!fields.isEmpty()) {
            line.append(" [").append(String.join("; ", fields)).append(']');
        }
        return new ApiProblem(status, parsed, line.toString());
    }

    /** An ALTO error (RFC 7285 §8.5.2): its code and whichever of field, value and syntax-error it names. */
    private static String altoError(JsonNode meta) {
        StringBuilder line = new StringBuilder(meta.path("code").asText());
        List<String> parts = new ArrayList<>();
        for (String name : List.of("field", "value", "syntax-error")) {
            JsonNode v = meta.get(name);
            if (v != null && !v.isNull()) {
                parts.add(name + " " + (v.isValueNode() ? v.asText() : v.toString()));
            }
        }
        if (!parts.isEmpty()) {
            line.append(": ").append(String.join(", ", parts));
        }
        return line.toString();
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }
}
