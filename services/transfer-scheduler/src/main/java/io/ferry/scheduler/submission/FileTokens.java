package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.ferry.problem.Problem;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A file's bearer tokens toward storage, as Rucio sends them and FTS3 takes them: {@code source_tokens} with one
 * token per source and {@code destination_tokens} with one per destination, both or neither. Each is a JWT (three
 * base64url parts) whose payload names its issuer ({@code iss}) and expiry ({@code exp}, not yet passed). Only the
 * shape is checked here: the SE the token is sent to verifies it. Never printed ({@link #toString}).
 */
public record FileTokens(List<String> sources, List<String> destinations) {

    /** An SE's token is a header value; longer ones are no WLCG token (IAM's are about 1 KiB). */
    public static final int MAX_LENGTH = 16_384;

    private static final ObjectMapper JSON = new ObjectMapper();

    public FileTokens {
        sources = List.copyOf(sources);
        destinations = List.copyOf(destinations);
    }

    /** The token of source {@code i}. */
    public String source(int i) {
        return sources.get(i);
    }

    /** The token of the first destination (the one a file is copied to). */
    public String destination() {
        return destinations.get(0);
    }

    /** When {@code token} (checked at submission) expires; null if it cannot be read. */
    public static Instant expiry(String token) {
        JsonNode payload = payload(token);
        return payload != null && payload.path("exp").canConvertToLong() ? Instant.ofEpochSecond(payload.path("exp").asLong()) : null;
    }

    /** Who issued {@code token} (its {@code iss}); null if it cannot be read. */
    public static String issuer(String token) {
        JsonNode payload = payload(token);
        return payload != null && payload.path("iss").isTextual() ? payload.path("iss").asText() : null;
    }

    /** The token's {@code scope} claim, null without one. */
    public static String scope(String token) {
        JsonNode payload = payload(token);
        return payload != null && payload.path("scope").isTextual() ? payload.path("scope").asText() : null;
    }

    /** Whether {@code token} has the shape a submitted one must have ({@code iss}, {@code exp} not passed), at {@code now}. */
    public static boolean wellFormed(String token, Instant now) {
        return problem(TextNode.valueOf(token), now) == null;
    }

    /**
     * The tokens of a submitted file {@code f} at {@code at} (files[i]), null when it gives none; every problem is
     * added to {@code errors}, none of them quoting a token.
     */
    static FileTokens parse(JsonNode f, int sources, int destinations, String at, Instant now, List<Problem.FieldError> errors) {
        JsonNode src = f.get("source_tokens");
        JsonNode dst = f.get("destination_tokens");
        boolean hasSrc = src != null && !src.isNull();
        boolean hasDst = dst != null && !dst.isNull();
        if (!hasSrc && !hasDst) {
            return null;
        }
        int before = errors.size();
        if (!hasSrc || !hasDst) {
            errors.add(new Problem.FieldError(at + (hasSrc ? ".destination_tokens" : ".source_tokens"),
                    "source_tokens and destination_tokens come together: one token per source and one per destination"));
            return null;
        }
        List<String> s = tokens(src, sources, "source", at + ".source_tokens", now, errors);
        List<String> d = tokens(dst, destinations, "destination", at + ".destination_tokens", now, errors);
        return errors.size() == before ? new FileTokens(s, d) : null;
    }

    private static List<String> tokens(JsonNode list, int expected, String side, String at, Instant now, List<Problem.FieldError> errors) {
        List<String> out = new ArrayList<>();
        if (!list.isArray()) {
            errors.add(new Problem.FieldError(at, "a list of tokens, one per " + side));
            return out;
        }
        if (list.size() != expected) {
            errors.add(new Problem.FieldError(at, list.size() + " token(s) for " + expected + " " + side + "(s): one per " + side));
        }
        for (int j = 0; j < list.size(); j++) {
            String problem = problem(list.get(j), now);
            if (problem != null) {
                errors.add(new Problem.FieldError(at + "[" + j + "]", problem));
            } else {
                out.add(list.get(j).asText());
            }
        }
        return out;
    }

    /** What is wrong with one token, or null. */
    private static String problem(JsonNode t, Instant now) {
        if (!t.isTextual() || t.asText().isEmpty()) {
            return "a token is a non-empty string";
        }
        String token = t.asText();
        if (token.length() > MAX_LENGTH) {
            return "at most " + MAX_LENGTH + " characters";
        }
        JsonNode payload = payload(token);
        if (payload == null) {
            return "not a JWT (three base64url parts, the second a JSON object)";
        }
        if (!payload.path("iss").isTextual()) {
            return "the token names no issuer (iss)";
        }
        if (!payload.path("exp").canConvertToLong()) {
            return "the token has no expiry (exp)";
        }
        if (Instant.ofEpochSecond(payload.path("exp").asLong()).isBefore(now)) {
            return "the token expired at " + Instant.ofEpochSecond(payload.path("exp").asLong());
        }
        return null;
    }

    /** The JWT's payload, or null when the token is no JWT (the characters a header value may not hold included). */
    private static JsonNode payload(String token) {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3 || !token.matches("[A-Za-z0-9_=-]+\\.[A-Za-z0-9_=-]+\\.[A-Za-z0-9_=-]*")) {
            return null;
        }
        try {
            JsonNode payload = JSON.readTree(Base64.getUrlDecoder().decode(parts[1].replace("=", "")));
            return payload != null && payload.isObject() ? payload : null;
        } catch (IllegalArgumentException | IOException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "FileTokens[" + sources.size() + " source(s), " + destinations.size() + " destination(s), redacted]";
    }
}
