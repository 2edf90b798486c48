package io.ferry.scheduler.tape;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.movers.BearerToken;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageCredential;
import io.ferry.scheduler.submission.TapeParams;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stage (bring-online) requests in the style of the WLCG Tape REST API, for SEs marked as needing a prepare step:
 * {@code POST {tape}/stage} with the file's path answers a request id; {@code GET {tape}/stage/{id}} says whether
 * the file is on disk yet; {@code POST {tape}/release/{id}} with the paths unpins them once copied;
 * {@code POST {tape}/archiveinfo} says whether files copied to the SE are on tape yet. One request stages many files
 * of one SE (FTS3 sends up to 200) and one poll answers for all of them; each file carries the job's
 * {@code copy_pin_lifetime} as {@code diskLifetime} and its {@code staging_metadata} as {@code targetedMetadata},
 * keyed by the SE's host (the endpoint the metadata is meant for). {@code tape} is the
 * SE's base URL registered under the protocol name "tape". Each call sends the file's bearer token toward that SE
 * where it has one (else it goes with Ferry's own identity).
 */
@ApplicationScoped
public class TapeStager {

    /** Where a stage request stands. */
    public record Status(boolean onDisk, String error) {
    }

    private static final Logger LOG = Logger.getLogger(TapeStager.class);

    final ObjectMapper json;

    @Inject
    public TapeStager(ObjectMapper json) {
        this.json = json;
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /**
     * One file of a stage request: its URL, Tape REST's {@code diskLifetime} (null: none) and the metadata meant for
     * its SE (null: none), sent as {@code targetedMetadata} keyed by the SE's host.
     */
    public record Stage(URI file, String diskLifetime, JsonNode metadata) {
    }

    /** One stage request for all of {@code files} (one SE, one credential): its request id. */
    public String request(String tape, List<Stage> files, StorageCredential credential) throws MoverException {
        var entries = json.createArrayNode();
        for (Stage f : files) {
            ObjectNode entry = entries.addObject().put("path", f.file().getPath());
            if (f.diskLifetime() != null) {
                entry.put("diskLifetime", f.diskLifetime());
            }
            if (f.metadata() != null) {
                entry.set("targetedMetadata", json.createObjectNode().set(f.file().getHost(), f.metadata()));
            }
        }
        String body = json.createObjectNode().set("files", entries).toString();
        JsonNode answer = call(post(strip(tape) + "/stage", body, credential), "stage request for " + files.size() + " file(s)");
        String id = answer.path("requestId").asText("");
        if (id.isBlank()) {
            throw new MoverException(MoverException.Code.STAGING_FAILED, "prepare", "the tape endpoint answered no requestId");
        }
        return id;
    }

    /** Cancels a stage request for the files that timed out; a failure only logged (the files fail anyway). */
    public void cancelQuietly(String tape, String requestId, List<URI> files, StorageCredential credential) {
        var paths = json.createArrayNode();
        files.forEach(f -> paths.add(f.getPath()));
        try {
            call(post(strip(tape) + "/stage/" + requestId + "/cancel", json.createObjectNode().set("paths", paths).toString(), credential),
                    "cancel of stage request " + requestId);
        } catch (MoverException e) {
            LOG.warnf("stage request %s not cancelled: %s", requestId, e.getMessage());
        }
    }

    /** Unpins the files of a stage request once their copy is over (copied or failed for good). */
    public void release(String tape, String requestId, List<URI> files, StorageCredential credential) throws MoverException {
        var paths = json.createArrayNode();
        files.forEach(f -> paths.add(f.getPath()));
        call(post(strip(tape) + "/release/" + requestId, json.createObjectNode().set("paths", paths).toString(), credential),
                "release of stage request " + requestId);
    }

    /**
     * Where a file stands for Tape REST's archiveinfo: on tape yet, on disk, or what the SE says went wrong;
     * {@code locality} as the SE spelt it ("" when it gave none).
     */
    public record Locality(boolean onTape, boolean onDisk, String error, String locality) {
    }

    /** {@code POST {tape}/archiveinfo} for the paths of {@code files}: each path the answer lists, by path. */
    public Map<String, Locality> archiveInfo(String tape, List<URI> files, StorageCredential credential) throws MoverException {
        var paths = json.createArrayNode();
        files.forEach(f -> paths.add(f.getPath()));
        JsonNode answer = call(post(strip(tape) + "/archiveinfo", json.createObjectNode().set("paths", paths).toString(), credential),
                "archiveinfo for " + files.size() + " file(s)");
        Map<String, Locality> byPath = new HashMap<>();
        for (JsonNode f : answer) {
            String error = f.hasNonNull("error") ? f.get("error").asText() : null;
            String locality = f.path("locality").asText("");
            byPath.put(f.path("path").asText(), new Locality(locality.contains("TAPE"), locality.contains("DISK"), error, locality));
        }
        return byPath;
    }

    /** {@code GET {tape}/stage/{id}}, once for all its files: where each path the answer lists stands, by path. */
    public Map<String, Status> poll(String tape, String requestId, StorageCredential credential) throws MoverException {
        JsonNode answer = call(authorized(HttpRequest.newBuilder(URI.create(strip(tape) + "/stage/" + requestId)), credential).GET(),
                "stage request " + requestId);
        Map<String, Status> byPath = new HashMap<>();
        for (JsonNode f : answer.path("files")) {
            String error = f.hasNonNull("error") ? f.get("error").asText() : null;
            byPath.put(f.path("path").asText(), new Status(f.path("onDisk").asBoolean(false), error));
        }
        return byPath;
    }

    private static HttpRequest.Builder post(String url, String body, StorageCredential credential) {
        return authorized(HttpRequest.newBuilder(URI.create(url)), credential).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    private static HttpRequest.Builder authorized(HttpRequest.Builder b, StorageCredential credential) {
        return credential instanceof BearerToken token ? b.header("Authorization", token.authorization()) : b;
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
            return r.body().isBlank() ? json.createObjectNode() : json.readTree(r.body());
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
