package io.ferry.resolver.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The value shapes CNRI's {@code GsonUtility} reads beside the canonical {@code {"format":…,"value":…}}: {@code data}
 * as a bare string (a string value), an admin record's {@code index} as a numeric string and its permissions as
 * {@code *} or fewer than 12 characters. They are turned into the canonical shape before the values are checked and
 * stored, so every answer shows one form.
 */
public final class ValueFormats {

    private ValueFormats() {
    }

    /** Rewrites one value of a request body (a JSON object) into the canonical shape, in place. */
    public static void canonicalize(JsonNode value) {
        if (!(value instanceof ObjectNode v)) {
            return;
        }
        JsonNode data = v.get("data");
        if (data != null && data.isTextual()) {
            v.set("data", JsonNodeFactory.instance.objectNode().put("format", "string").put("value", data.asText()));
            return;
        }
        if (data instanceof ObjectNode d && d.path("format").isTextual()) {
            String format = d.get("format").asText().toLowerCase(java.util.Locale.ROOT);
            d.put("format", format);
            if ("admin".equals(format) && d.get("value") instanceof ObjectNode admin) {
                JsonNode index = admin.get("index");
                if (index != null && index.isTextual() && index.asText().matches("\\d{1,9}")) {
                    admin.put("index", Integer.parseInt(index.asText()));
                }
                JsonNode perms = admin.get("permissions");
                if (perms != null && perms.isTextual() && AdminPermissions.normalized(perms.asText()) != null) {
                    admin.put("permissions", AdminPermissions.normalized(perms.asText()));
                }
            }
        }
    }

    /** The bytes of a {@code string}, {@code hex} or {@code base64} value; null for the structured formats. */
    public static byte[] bytes(HandleValue.Data data) {
        if (data == null || data.value() == null || !data.value().isTextual()) {
            return null;
        }
        String text = data.value().asText();
        try {
            return switch (data.format()) {
                case "string" -> text.getBytes(StandardCharsets.UTF_8);
                case "hex" -> HexFormat.of().parseHex(text);
                case "base64" -> Base64.getDecoder().decode(text);
                default -> null;
            };
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
