package io.ferry.dev;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A WLCG Tape REST endpoint for tests ({@code /api/v1}): stage requests ({@code POST /stage}, {@code GET /stage/{id}},
 * {@code POST /stage/{id}/cancel}), {@code POST /release/{id}} and {@code POST /archiveinfo}. Files come online after
 * {@code pollsToDisk} polls of their request (never when negative); a cancel or release names some or all of a
 * request's files. Files reach tape after {@code pollsToTape} archiveinfo
 * questions (never when negative). A request that does not have the spec's shape is answered 400 and kept in
 * {@link #refused}, so a test sees it; every request is kept in {@link #requests}.
 */
public final class TapeRestServer implements AutoCloseable {

    /** One request as it arrived. */
    public record Request(String method, String path, JsonNode body, String authorization) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    public final List<Request> requests = new CopyOnWriteArrayList<>();
    public final List<String> refused = new CopyOnWriteArrayList<>();
    private final Map<String, List<String>> stagedPaths = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> polls = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    private final HttpServer server;
    private volatile int pollsToDisk;
    private volatile int pollsToTape;

    public TapeRestServer(int pollsToDisk, int pollsToTape) throws IOException {
        this.pollsToDisk = pollsToDisk;
        this.pollsToTape = pollsToTape;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/api/v1/", this::handle);
        server.start();
    }

    /** From now on, files reach tape after {@code polls} more archiveinfo questions (never when negative). */
    public void reachTapeAfter(int questions) {
        polls.keySet().removeIf(k -> k.startsWith("archive:"));
        pollsToTape = questions;
    }

    /** The Tape REST base URL, to register as the SE's "tape" base URL. */
    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1";
    }

    public List<Request> requests(String method, String pathPrefix) {
        return requests.stream().filter(r -> r.method().equals(method) && r.path().startsWith(pathPrefix)).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath().substring("/api/v1".length());
        String method = exchange.getRequestMethod();
        JsonNode body = null;
        byte[] raw = exchange.getRequestBody().readAllBytes();
        if (raw.length > 0) {
            try {
                body = JSON.readTree(raw);
            } catch (IOException e) {
                refuse(exchange, method + " " + path + ": not JSON");
                return;
            }
        }
        requests.add(new Request(method, path, body, exchange.getRequestHeaders().getFirst("Authorization")));
        if (method.equals("POST") && path.equals("/stage")) {
            stage(exchange, body);
        } else if (method.equals("GET") && path.matches("/stage/[^/]+")) {
            poll(exchange, path.substring("/stage/".length()));
        } else if (method.equals("POST") && path.matches("/(stage/[^/]+/cancel|release/[^/]+)")) {
            String id = path.startsWith("/release/") ? path.substring("/release/".length()) : path.split("/")[2];
            List<String> named = paths(body);
            // a cancel or release names some or all of the request's files, each once
            if (!stagedPaths.containsKey(id) || named.isEmpty() || named.stream().distinct().count() != named.size()
                    || !stagedPaths.get(id).containsAll(named)) {
                refuse(exchange, method + " " + path + ": paths " + body + " are not among those of request " + id + " " + stagedPaths.get(id));
                return;
            }
            answer(exchange, 200, "");
        } else if (method.equals("POST") && path.equals("/archiveinfo")) {
            archiveInfo(exchange, body);
        } else {
            refuse(exchange, method + " " + path + ": no such Tape REST call");
        }
    }

    private void stage(HttpExchange exchange, JsonNode body) throws IOException {
        if (body == null || !body.path("files").isArray() || body.path("files").isEmpty()) {
            refuse(exchange, "stage: no files[]");
            return;
        }
        List<String> paths = new ArrayList<>();
        for (JsonNode f : body.get("files")) {
            if (!f.path("path").isTextual() || !f.path("path").asText().startsWith("/")) {
                refuse(exchange, "stage: a file without an absolute path: " + f);
                return;
            }
            if (f.has("diskLifetime") && !f.get("diskLifetime").asText().matches("PT\\d+[SMH]")) {
                refuse(exchange, "stage: diskLifetime is not an ISO 8601 duration: " + f);
                return;
            }
            if (f.has("targetedMetadata") && !f.get("targetedMetadata").isObject()) {
                refuse(exchange, "stage: targetedMetadata is not an object: " + f);
                return;
            }
            paths.add(f.get("path").asText());
        }
        String id = "req-" + ids.incrementAndGet();
        stagedPaths.put(id, paths);
        polls.put(id, new AtomicInteger());
        answer(exchange, 201, "{\"requestId\":\"" + id + "\"}");
    }

    private void poll(HttpExchange exchange, String id) throws IOException {
        if (!stagedPaths.containsKey(id)) {
            answer(exchange, 404, "{\"title\":\"no such request\"}");
            return;
        }
        boolean onDisk = pollsToDisk >= 0 && polls.get(id).incrementAndGet() >= pollsToDisk;
        ObjectNode answer = JSON.createObjectNode().put("id", id);
        ArrayNode files = answer.putArray("files");
        stagedPaths.get(id).forEach(p -> files.addObject().put("path", p).put("onDisk", onDisk).put("state", onDisk ? "COMPLETED" : "STARTED"));
        answer(exchange, 200, answer.toString());
    }

    private void archiveInfo(HttpExchange exchange, JsonNode body) throws IOException {
        List<String> paths = paths(body);
        if (paths.isEmpty()) {
            refuse(exchange, "archiveinfo: no paths[]");
            return;
        }
        ArrayNode answer = JSON.createArrayNode();
        for (String p : paths) {
            boolean onTape = pollsToTape >= 0 && polls.computeIfAbsent("archive:" + p, k -> new AtomicInteger()).incrementAndGet() >= pollsToTape;
            answer.addObject().put("path", p).put("locality", onTape ? "DISK_AND_TAPE" : "DISK");
        }
        answer(exchange, 200, answer.toString());
    }

    private static List<String> paths(JsonNode body) {
        List<String> paths = new ArrayList<>();
        if (body != null) {
            body.path("paths").forEach(p -> paths.add(p.asText()));
        }
        return paths;
    }

    private void refuse(HttpExchange exchange, String why) throws IOException {
        refused.add(why);
        answer(exchange, 400, "{\"title\":\"" + why.replace("\"", "'") + "\"}");
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
