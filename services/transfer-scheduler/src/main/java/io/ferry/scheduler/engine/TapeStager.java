package io.ferry.scheduler.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.movers.MoverException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Stage (bring-online) requests in the style of the WLCG Tape REST API, for SEs marked as needing a prepare step:
 * {@code POST {tape}/stage} with the file's path answers a request id; {@code GET {tape}/stage/{id}} says whether
 * the file is on disk yet. {@code tape} is the SE's base URL registered under the protocol name "tape".
 */
@ApplicationScoped
public class TapeStager {

    /** Where a stage request stands. */
    public record Status(boolean onDisk, String error) {
    }

    @Inject
    ObjectMapper json;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    public String request(String tape, URI file) throws MoverException {
        String body = json.createObjectNode().set("files", json.createArrayNode().add(json.createObjectNode().put("path", file.getPath())))
                .toString();
        JsonNode answer = call(HttpRequest.newBuilder(URI.create(strip(tape) + "/stage")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)), "stage request for " + file);
        String id = answer.path("requestId").asText("");
        if (id.isBlank()) {
            throw new MoverException(MoverException.Code.STAGING_FAILED, "prepare", "the tape endpoint answered no requestId");
        }
        return id;
    }

    public Status poll(String tape, String requestId, URI file) throws MoverException {
        JsonNode answer = call(HttpRequest.newBuilder(URI.create(strip(tape) + "/stage/" + requestId)).GET(), "stage request " + requestId);
        for (JsonNode f : answer.path("files")) {
            if (f.path("path").asText().equals(file.getPath())) {
                String error = f.hasNonNull("error") ? f.get("error").asText() : null;
                return new Status(f.path("onDisk").asBoolean(false), error);
            }
        }
        return new Status(false, "the stage request does not list " + file.getPath());
    }

    private JsonNode call(HttpRequest.Builder b, String what) throws MoverException {
        try {
            HttpResponse<String> r = http.send(b.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() >= 500) {
                throw new MoverException(MoverException.Code.HTTP_5XX, "prepare", what + " answered HTTP " + r.statusCode());
            }
            if (r.statusCode() >= 300) {
                throw new MoverException(MoverException.Code.STAGING_FAILED, "prepare", what + " answered HTTP " + r.statusCode());
            }
            return json.readTree(r.body());
        } catch (IOException e) {
            throw new MoverException(MoverException.Code.CONNECTION_RESET, "prepare", what + " failed: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new MoverException(MoverException.Code.TIMEOUT, "prepare", what + " interrupted");
        }
    }

    private static String strip(String base) {
        return base.replaceAll("/+$", "");
    }
}
