package io.ferry.scheduler.fts3;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.problem.Problem;
import jakarta.ws.rs.core.Response;

import java.util.Arrays;
import java.util.List;

/**
 * FTS3's answers for calls on several jobs at once ({@code GET}, {@code POST} and {@code DELETE /jobs/a,b,c}): each
 * job's entry carries {@code http_status} ("200 Ok", "304 Not Modified", "404 Not Found" with {@code http_message}),
 * which Rucio's conveyor branches on. One id answers its entry alone, with the entry's status when that is an
 * error (as a problem document that also has FTS3's fields); several answer a list, 207 when some were not found.
 */
public final class Fts3Statuses {

    public static final String OK = "200 Ok";
    public static final String NOT_MODIFIED = "304 Not Modified";
    public static final String NOT_FOUND = "404 Not Found";

    private Fts3Statuses() {
    }

    /** A job's entry as a read answers it: its view with {@code http_status} (and {@code http_message} when given). */
    public static ObjectNode found(ObjectMapper json, Object view, String status, String message) {
        ObjectNode entry = view instanceof ObjectNode node ? node : json.valueToTree(view);
        entry.put("http_status", status);
        if (message != null) {
            entry.put("http_message", message);
        }
        return entry;
    }

    /**
     * A job's entry as a change (modify, cancel) answers it: FTS3 sets {@code http_message} on every such entry, null
     * when the change was made, and Rucio's priority update reads it unconditionally ({@code res['http_message']}).
     */
    public static ObjectNode changed(ObjectMapper json, Object view, String status, String message) {
        ObjectNode entry = found(json, view, status, message);
        if (message == null) {
            entry.putNull("http_message");
        }
        return entry;
    }

    /** The entry of an id that names no job the caller may see (FTS3's text, so both say the same). */
    public static ObjectNode missing(ObjectMapper json, String id) {
        ObjectNode entry = json.createObjectNode();
        entry.put("job_id", id);
        entry.put("http_status", NOT_FOUND);
        entry.put("http_message", "No job with the id \"" + id + "\" has been found");
        return entry;
    }

    /** One entry alone (its error status if it has one), else all of them, 207 when any is an error. */
    public static Response answer(ObjectMapper json, List<ObjectNode> entries, boolean several, String path) {
        if (!several) {
            ObjectNode single = entries.get(0);
            if (!isError(single)) {
                return Response.ok(single).build();
            }
            ObjectNode problem = json.valueToTree(Problem.of(404, "NOT_FOUND", single.get("http_message").asText()).atInstance(path));
            problem.setAll(single);
            return Response.status(404).type(Problem.MEDIA_TYPE).entity(problem).build();
        }
        ArrayNode list = json.createArrayNode();
        entries.forEach(list::add);
        return Response.status(entries.stream().anyMatch(Fts3Statuses::isError) ? 207 : 200).entity(list).build();
    }

    private static boolean isError(ObjectNode entry) {
        return !entry.path("http_status").asText().startsWith("2") && !entry.path("http_status").asText().equals(NOT_MODIFIED);
    }

    /** The ids of a path such as {@code a,b,c}, blanks skipped as FTS3 does. */
    public static List<String> ids(String joined) {
        return Arrays.stream(joined.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
