package io.ferry.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.cli.auth.Credential;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;
import java.util.stream.Stream;

/**
 * JSON over HTTP to one service with the caller's credential: a bearer token in the {@code Authorization} header, or
 * the client certificate of an X.509 proxy (TLS set up by {@link Credential#sslContext()}). An answer of 400 or more
 * is thrown as an {@link ApiProblem}.
 */
public final class FerryHttp {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private final String base;
    private final Credential credential;
    private final HttpClient http;

    public FerryHttp(String base, Credential credential) {
        this.base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        this.credential = credential;
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10));
        credential.sslContext().ifPresent(b::sslContext);
        this.http = b.build();
    }

    public String base() {
        return base;
    }

    public JsonNode get(String path) {
        return send("GET", path, null);
    }

    public JsonNode delete(String path) {
        return send("DELETE", path, null);
    }

    public JsonNode post(String path, JsonNode body) {
        return send("POST", path, body);
    }

    public JsonNode put(String path, JsonNode body) {
        return send("PUT", path, body);
    }

    /** The answer's JSON (a missing node when it has no body). */
    public JsonNode send(String method, String path, JsonNode body) {
        return exchange(method, path, body, "application/json", "application/json");
    }

    /**
     * As {@link #send}, with the body sent as {@code contentType} and {@code accept} asked for: protocols with media
     * types of their own (ALTO's {@code application/alto-costmap+json}, say) answer only when asked by them.
     */
    public JsonNode exchange(String method, String path, JsonNode body, String contentType, String accept) {
        HttpRequest request = request(path, accept, contentType)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body.toString()))
                .timeout(TIMEOUT).build();
        HttpResponse<String> response = call(request, HttpResponse.BodyHandlers.ofString());
        JsonNode parsed = parse(response.body());
        if (response.statusCode() >= 400) {
            throw ApiProblem.of(method, base + path, response.statusCode(), parsed, response.body());
        }
        return parsed == null ? JSON.missingNode() : parsed;
    }

    /** A {@code text/event-stream} answer's lines as they arrive; the stream stays open until closed or the server ends it. */
    public Stream<String> eventLines(String path) {
        HttpResponse<Stream<String>> response = call(request(path, "text/event-stream", "application/json").GET().build(), HttpResponse.BodyHandlers.ofLines());
        if (response.statusCode() >= 400) {
            String body = String.join("\n", response.body().toList());
            throw ApiProblem.of("GET", base + path, response.statusCode(), parse(body), body);
        }
        return response.body();
    }

    private HttpRequest.Builder request(String path, String accept, String contentType) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).header("Accept", accept + ", application/problem+json")
                .header("Content-Type", contentType).header("User-Agent", "ferry-cli");
        credential.bearer().ifPresent(t -> b.header("Authorization", "Bearer " + t));
        return b;
    }

    private <T> HttpResponse<T> call(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        try {
            return http.send(request, handler);
        } catch (ConnectException e) {
            throw new ServiceUnreachable(request.uri().getScheme() + "://" + request.uri().getAuthority()
                    + " does not answer (is the service up, and is the endpoint right? ferry --help says how to set endpoints)");
        } catch (IOException e) {
            throw new ServiceUnreachable(request.method() + " " + request.uri() + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceUnreachable("interrupted");
        }
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            return null;
        }
        try {
            return JSON.readTree(body);
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code ?a=1&b=2} of the parameters that are set, URL-encoded ("" when none). */
    public static String query(Map<String, ?> params) {
        StringJoiner q = new StringJoiner("&", "?", "").setEmptyValue("");
        new LinkedHashMap<>(params).forEach((k, v) -> {
            if (v != null && !v.toString().isEmpty()) {
                q.add(k + "=" + URLEncoder.encode(v.toString(), StandardCharsets.UTF_8));
            }
        });
        return q.toString();
    }

    /** A path segment, URL-encoded. */
    public static String segment(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** The service could not be reached, or the connection broke. */
    public static final class ServiceUnreachable extends UncheckedIOException {
        public ServiceUnreachable(String message) {
            super(message, new IOException(message));
        }
    }
}
