package io.ferry.it.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.math.BigInteger;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hostile requests for one operation: odd path values, odd query values and bad bodies, each changing one thing
 * of an otherwise plausible request (plausible values are "1" and 1, which the sweep's seed data makes exist).
 */
public final class HostileRequests {

    /**
     * One request to send. {@code target} is the path and query, already percent-encoded as sent; a {@code chunked}
     * body goes without a Content-Length, so that only reading it shows how large it is.
     */
    public record Request(String label, String method, String target, byte[] body, String contentType, boolean chunked) {
        Request(String label, String method, String target, byte[] body, String contentType) {
            this(label, method, target, body, contentType, false);
        }
    }

    /** A request line no HTTP client library builds: {@code target} holds the raw bytes sent. */
    public record RawRequest(String label, String method, byte[] target) {
    }

    /** Values for a path segment, percent-encoded as they go on the wire. */
    static final List<String> PATH_VALUES = List.of("%00", "a%00b", "%2e%2e", "..%2f..%2fetc", "%2F", "a%2Fb", "%5C", "a".repeat(2000),
            "%C3%A9t%C3%A9%E2%9C%93%F0%9F%98%80", "-1", "0", "99999999999999999999", "1e400", "1.5", "%FF%FE", "%C3%28", "%0D%0Ax",
            "%20", "%3Cscript%3E", "%27%22%3B--", "%25", "true");
    /** Values for a query parameter, percent-encoded. */
    static final List<String> QUERY_VALUES = List.of("%00", "a%00b", "%0D%0A", "%0Dx%0A", "%20", "a%20b", "99999999999999999999", "-1",
            "1e400", "abc", "", "%FF", "%C3%28", "a".repeat(2000), "%2e%2e%2F", "1%3BDROP", "%3C%22%7B%7D%60%5C", "%2F%2Fevil.example");
    static final List<String> BODY_LITERALS = List.of("null", "[]", "{}", "\"\"", "0", "-1", "true", "\"1\"", "99999999999999999999",
            "{", "{\"a\":1,}", "[1,2", "nul", "{\"\u0000\":1}");
    static final List<String> WRONG_CONTENT_TYPES = List.of("text/plain", "application/xml", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=x");
    static final int HUGE_BODY = 20 << 20;
    private static final int MAX_POINTERS = 30;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final JsonSchemas schemas;

    public HostileRequests(JsonSchemas schemas) {
        this.schemas = schemas;
    }

    /** A plausible request: path parameters "1", required query parameters plausible, a plausible body. */
    public Request plausible(ApiOperation op) {
        return new Request("plausible", op.method(), target(op, Map.of(), Map.of(), false), plausibleBody(op), mediaType(op));
    }

    /** Every hostile request for {@code op}; the 20 MB body (once per operation with a body) comes last. */
    public List<Request> all(ApiOperation op) {
        List<Request> out = new ArrayList<>();
        byte[] body = plausibleBody(op);
        String type = mediaType(op);
        for (ApiOperation.Parameter p : op.pathParameters()) {
            for (String v : PATH_VALUES) {
                out.add(new Request("path " + p.name() + "=" + abbreviate(v), op.method(), target(op, Map.of(p.name(), v), Map.of(), false), body, type));
            }
        }
        if (op.queryParameters().stream().anyMatch(ApiOperation.Parameter::required)) {
            out.add(new Request("required query parameters missing", op.method(), target(op, Map.of(), Map.of(), true), body, type));
        }
        for (ApiOperation.Parameter q : op.queryParameters()) {
            for (String v : QUERY_VALUES) {
                out.add(new Request("query " + q.name() + "=" + abbreviate(v), op.method(), target(op, Map.of(), Map.of(q.name(), v), false), body, type));
            }
            String twice = target(op, Map.of(), Map.of(q.name(), plausibleText(q.schema())), false) + "&" + q.name() + "=-1";
            out.add(new Request("query " + q.name() + " twice", op.method(), twice, body, type));
        }
        if (op.takesBody()) {
            out.addAll(bodies(op, body, type));
        }
        return out;
    }

    /** Malformed percent-escapes and raw bytes that are not ASCII, in each path and query parameter. */
    public List<RawRequest> raw(ApiOperation op) {
        List<RawRequest> out = new ArrayList<>();
        List<byte[]> values = List.of(ascii("%zz"), ascii("%"), ascii("a%C"), new byte[]{(byte) 0xC3, (byte) 0xA9}, new byte[]{'a', (byte) 0xFF});
        for (ApiOperation.Parameter p : op.pathParameters()) {
            for (byte[] v : values) {
                String marker = "\u0001RAW\u0001";
                out.add(new RawRequest("raw path " + p.name() + "=" + printable(v), op.method(),
                        splice(target(op, Map.of(p.name(), marker), Map.of(), false), marker, v)));
            }
        }
        for (ApiOperation.Parameter q : op.queryParameters()) {
            for (byte[] v : values) {
                String marker = "\u0001RAW\u0001";
                out.add(new RawRequest("raw query " + q.name() + "=" + printable(v), op.method(),
                        splice(target(op, Map.of(), Map.of(q.name(), marker), false), marker, v)));
            }
        }
        return out;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static String printable(byte[] v) {
        StringBuilder b = new StringBuilder();
        for (byte x : v) {
            b.append(x >= 0x21 && x < 0x7f ? String.valueOf((char) x) : String.format("\\x%02X", x & 0xff));
        }
        return b.toString();
    }

    private static byte[] splice(String target, String marker, byte[] value) {
        int at = target.indexOf(marker);
        byte[] before = target.substring(0, at).getBytes(StandardCharsets.US_ASCII);
        byte[] after = target.substring(at + marker.length()).getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[before.length + value.length + after.length];
        System.arraycopy(before, 0, out, 0, before.length);
        System.arraycopy(value, 0, out, before.length, value.length);
        System.arraycopy(after, 0, out, before.length + value.length, after.length);
        return out;
    }

    /** The 20 MB body without a Content-Length: the size limit has to hold while the body is read. */
    public Request hugeChunked(ApiOperation op) {
        Request r = huge(op);
        return new Request("20 MB body, chunked", r.method(), r.target(), r.body(), r.contentType(), true);
    }

    /** The 20 MB body for an operation that takes one: its plausible body with one string 20 MB long. */
    public Request huge(ApiOperation op) {
        JsonNode plausible = schemas.plausible(op.bodySchema());
        String filler = "a".repeat(HUGE_BODY);
        JsonNode big = null;
        for (String pointer : JsonSchemas.pointers(plausible)) {
            if (plausible.at(pointer).isTextual()) {
                big = JsonSchemas.with(plausible, pointer, NODES.textNode(filler));
                break;
            }
        }
        if (big == null) {
            big = NODES.objectNode().put("padding", filler);
        }
        return new Request("20 MB body", op.method(), target(op, Map.of(), Map.of(), false), bytes(big), mediaType(op));
    }

    private List<Request> bodies(ApiOperation op, byte[] plausible, String type) {
        String target = target(op, Map.of(), Map.of(), false);
        List<Request> out = new ArrayList<>();
        out.add(new Request("empty body", op.method(), target, new byte[0], type));
        for (String literal : BODY_LITERALS) {
            out.add(new Request("body " + abbreviate(literal), op.method(), target, literal.getBytes(StandardCharsets.UTF_8), type));
        }
        out.add(new Request("body nested 20000 arrays deep", op.method(), target, ("[".repeat(20_000) + "]".repeat(20_000)).getBytes(StandardCharsets.UTF_8), type));
        out.add(new Request("body nested 20000 objects deep", op.method(), target,
                ("{\"a\":".repeat(20_000) + "1" + "}".repeat(20_000)).getBytes(StandardCharsets.UTF_8), type));
        for (String wrong : WRONG_CONTENT_TYPES) {
            out.add(new Request("Content-Type " + wrong, op.method(), target, plausible, wrong));
        }
        out.add(new Request("no Content-Type", op.method(), target, plausible, null));
        if (!type.contains("json")) {
            out.add(new Request("Content-Type application/json", op.method(), target, "{\"a\":1}".getBytes(StandardCharsets.UTF_8), "application/json"));
            out.add(new Request("body with NUL", op.method(), target, "a\u0000b\n1,2\u0000\n".getBytes(StandardCharsets.UTF_8), type));
            out.add(new Request("body invalid UTF-8", op.method(), target, new byte[]{'a', (byte) 0xC3, '(', (byte) 0xFF, '\n'}, type));
            return out;
        }
        JsonNode value = schemas.plausible(op.bodySchema());
        List<String> pointers = JsonSchemas.pointers(value);
        boolean invalidUtf8Done = false;
        for (String pointer : pointers.subList(0, Math.min(MAX_POINTERS, pointers.size()))) {
            JsonNode current = value.at(pointer);
            for (JsonNode wrong : wrongValues(current)) {
                out.add(new Request("body " + pointer + "=" + abbreviate(wrong.toString()), op.method(), target, bytes(JsonSchemas.with(value, pointer, wrong)), type));
            }
            if (current.isTextual() && !invalidUtf8Done) {
                // Bytes that are not UTF-8 inside a string: C3 28 is a broken two-byte sequence, FF never occurs in UTF-8.
                String marked = new String(bytes(JsonSchemas.with(value, pointer, NODES.textNode("\u0001INVALID\u0001"))), StandardCharsets.UTF_8);
                byte[] withMarker = marked.getBytes(StandardCharsets.UTF_8);
                out.add(new Request("body " + pointer + " invalid UTF-8", op.method(), target, replaceMarker(withMarker, "\\u0001INVALID\\u0001"), type));
                invalidUtf8Done = true;
            }
        }
        return out;
    }

    private static List<JsonNode> wrongValues(JsonNode current) {
        List<JsonNode> wrong = new ArrayList<>();
        wrong.add(NODES.nullNode());
        switch (current.getNodeType()) {
            case STRING -> {
                wrong.add(NODES.numberNode(12345));
                wrong.add(NODES.objectNode());
                wrong.add(NODES.textNode("a\u0000b"));
                wrong.add(NODES.textNode(""));
                wrong.add(NODES.textNode("x".repeat(100_000)));
                wrong.add(NODES.textNode("../../etc/passwd\r\nX: y"));
            }
            case NUMBER -> {
                wrong.add(NODES.textNode("abc"));
                wrong.add(NODES.numberNode(new BigInteger("99999999999999999999")));
                wrong.add(NODES.numberNode(-1));
                wrong.add(rawNumber("1e400"));
            }
            case BOOLEAN -> {
                wrong.add(NODES.textNode("maybe"));
                wrong.add(NODES.numberNode(2));
            }
            case ARRAY -> {
                wrong.add(NODES.objectNode());
                wrong.add(NODES.textNode("1"));
                wrong.add(NODES.arrayNode().addNull());
            }
            case OBJECT -> {
                wrong.add(NODES.arrayNode());
                wrong.add(NODES.textNode("1"));
            }
            default -> { }
        }
        return wrong;
    }

    private static JsonNode rawNumber(String literal) {
        return NODES.rawValueNode(new com.fasterxml.jackson.databind.util.RawValue(literal));
    }

    private static byte[] replaceMarker(byte[] json, String marker) {
        String s = new String(json, StandardCharsets.ISO_8859_1);
        int at = s.indexOf(marker);
        if (at < 0) {
            return json;
        }
        byte[] invalid = {'a', (byte) 0xC3, '(', (byte) 0xFF, 'b'};
        byte[] before = Arrays.copyOfRange(json, 0, at);
        byte[] after = Arrays.copyOfRange(json, at + marker.length(), json.length);
        byte[] out = new byte[before.length + invalid.length + after.length];
        System.arraycopy(before, 0, out, 0, before.length);
        System.arraycopy(invalid, 0, out, before.length, invalid.length);
        System.arraycopy(after, 0, out, before.length + invalid.length, after.length);
        return out;
    }

    private byte[] plausibleBody(ApiOperation op) {
        if (!op.takesBody()) {
            return null;
        }
        if (!mediaType(op).contains("json")) {
            return "1\n".getBytes(StandardCharsets.UTF_8);
        }
        return bytes(schemas.plausible(op.bodySchema()));
    }

    private static String mediaType(ApiOperation op) {
        // A resource that consumes anything is documented as */*, which is no Content-Type a client sends.
        return op.bodyMediaTypes().stream().filter(t -> !t.contains("*")).findFirst().orElse("application/json");
    }

    /**
     * The request target: path parameters from {@code pathValues} or "1", query parameters from {@code queryValues},
     * else the required ones with plausible values (none at all when {@code noQuery}).
     */
    private String target(ApiOperation op, Map<String, String> pathValues, Map<String, String> queryValues, boolean noQuery) {
        String path = op.path();
        for (ApiOperation.Parameter p : op.pathParameters()) {
            String value = pathValues.getOrDefault(p.name(), plausibleText(p.schema()));
            path = path.replaceAll("\\{" + java.util.regex.Pattern.quote(p.name()) + "(:[^}]*)?}", java.util.regex.Matcher.quoteReplacement(value));
        }
        Map<String, String> query = new LinkedHashMap<>();
        if (!noQuery) {
            for (ApiOperation.Parameter q : op.queryParameters()) {
                if (q.required()) {
                    query.put(q.name(), plausibleText(q.schema()));
                }
            }
            query.putAll(queryValues);
        }
        StringBuilder target = new StringBuilder(path);
        query.forEach((k, v) -> target.append(target.indexOf("?") < 0 ? '?' : '&').append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=').append(v));
        return target.toString();
    }

    private String plausibleText(JsonNode schema) {
        JsonNode v = schemas.plausible(schema);
        String text = v.isTextual() ? v.asText() : v.isNumber() && "integer".equals(schemas.type(schema)) ? Long.toString(v.asLong()) : v.asText();
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static byte[] bytes(JsonNode value) {
        try {
            return JSON.writeValueAsBytes(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static String abbreviate(String s) {
        String visible = s.replace("\u0000", "\\0").replace("\r", "\\r").replace("\n", "\\n");
        return visible.length() > 40 ? visible.substring(0, 20) + "…(" + visible.length() + " chars)" : visible;
    }
}
