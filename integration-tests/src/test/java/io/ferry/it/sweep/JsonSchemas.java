package io.ferry.it.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Reads the schemas of an OpenAPI document ({@code $ref}, {@code allOf}, 3.0 and 3.1 types) and builds plausible values. */
public final class JsonSchemas {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final int MAX_DEPTH = 6;
    private final JsonNode document;

    public JsonSchemas(JsonNode document) {
        this.document = document;
    }

    /** The node a {@code $ref} points to (followed until it is not a reference), or the node itself. */
    public JsonNode resolve(JsonNode node) {
        for (int hops = 0; node != null && node.has("$ref") && hops < 20; hops++) {
            String ref = node.get("$ref").asText();
            node = ref.startsWith("#") ? document.at(ref.substring(1)) : node;
        }
        return node == null ? NODES.missingNode() : node;
    }

    /** The schema's type, ignoring {@code "null"} in a 3.1 type list; "object" when it only has properties. */
    public String type(JsonNode schema) {
        schema = resolve(schema);
        JsonNode type = schema.path("type");
        if (type.isArray()) {
            for (JsonNode t : type) {
                if (!t.asText().equals("null")) {
                    return t.asText();
                }
            }
        }
        if (type.isTextual()) {
            return type.asText();
        }
        if (schema.has("properties") || schema.has("additionalProperties")) {
            return "object";
        }
        if (schema.has("items")) {
            return "array";
        }
        for (String combiner : new String[]{"allOf", "oneOf", "anyOf"}) {
            if (schema.path(combiner).isArray() && !schema.path(combiner).isEmpty()) {
                return type(schema.path(combiner).get(0));
            }
        }
        return "";
    }

    /** A value of the schema's shape: every property present, arrays of one element, enums at their first value. */
    public JsonNode plausible(JsonNode schema) {
        return plausible(schema, 0);
    }

    private JsonNode plausible(JsonNode schema, int depth) {
        schema = resolve(schema);
        if (schema.path("enum").isArray() && !schema.path("enum").isEmpty()) {
            return schema.path("enum").get(0);
        }
        return switch (type(schema)) {
            case "integer" -> NODES.numberNode(1);
            case "number" -> NODES.numberNode(1.5);
            case "boolean" -> NODES.booleanNode(true);
            case "array" -> {
                ArrayNode a = NODES.arrayNode();
                if (depth < MAX_DEPTH) {
                    a.add(plausible(schema.path("items"), depth + 1));
                }
                yield a;
            }
            case "object" -> {
                ObjectNode o = NODES.objectNode();
                if (depth < MAX_DEPTH) {
                    for (Map.Entry<String, JsonNode> p : properties(schema)) {
                        o.set(p.getKey(), plausible(p.getValue(), depth + 1));
                    }
                    JsonNode additional = schema.path("additionalProperties");
                    if (o.isEmpty() && additional.isObject()) {
                        o.set("1", plausible(additional, depth + 1));
                    }
                }
                yield o;
            }
            default -> NODES.textNode(plausibleString(schema.path("format").asText()));
        };
    }

    private List<Map.Entry<String, JsonNode>> properties(JsonNode schema) {
        List<Map.Entry<String, JsonNode>> all = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("properties").fields(); it.hasNext(); ) {
            all.add(it.next());
        }
        for (JsonNode part : schema.path("allOf")) {
            all.addAll(properties(resolve(part)));
        }
        return all;
    }

    private static String plausibleString(String format) {
        return switch (format) {
            case "date-time" -> "2026-01-01T00:00:00Z";
            case "date" -> "2026-01-01";
            case "duration" -> "PT1H";
            case "uuid" -> "00000000-0000-0000-0000-000000000001";
            case "uri", "url" -> "https://example.org/1";
            default -> "1";
        };
    }

    /** JSON pointers of every member and element of {@code value}, depth first, the root excluded. */
    public static List<String> pointers(JsonNode value) {
        List<String> out = new ArrayList<>();
        collect(value, "", out);
        return out;
    }

    private static void collect(JsonNode node, String at, List<String> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String child = at + "/" + e.getKey().replace("~", "~0").replace("/", "~1");
                out.add(child);
                collect(e.getValue(), child, out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                out.add(at + "/" + i);
                collect(node.get(i), at + "/" + i, out);
            }
        }
    }

    /** A copy of {@code root} with the value at {@code pointer} replaced. */
    public static JsonNode with(JsonNode root, String pointer, JsonNode value) {
        JsonNode copy = root.deepCopy();
        int slash = pointer.lastIndexOf('/');
        JsonNode parent = slash == 0 ? copy : copy.at(pointer.substring(0, slash));
        String last = pointer.substring(slash + 1).replace("~1", "/").replace("~0", "~");
        if (parent instanceof ObjectNode o) {
            o.set(last, value);
        } else if (parent instanceof ArrayNode a) {
            a.set(Integer.parseInt(last), value);
        }
        return copy;
    }
}
