package io.ferry.resolver.nativeprotocol.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.ferry.resolver.model.AdminPermissions;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.ValuePermissions;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * Ferry's stored values (Handle.net's JSON shape) to and from the protocol's bytes: {@code string} is UTF-8,
 * {@code hex} and {@code base64} their bytes, {@code admin} CNRI's admin record (2-byte permission bits in
 * AdminPermissions' order, bit i the i-th character from the right; the admin handle; its index), {@code vlist} CNRI's reference list. Values written
 * over the protocol are stored as {@code admin} (HS_ADMIN), {@code vlist} (HS_VLIST), {@code string} when their
 * bytes are text, else {@code base64}, so every byte comes back as it was sent.
 */
public final class ValueTranslation {

    public static final String HS_VLIST = "HS_VLIST";

    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'");
    private static final int DEFAULT_TTL = 86400;

    private ValueTranslation() {
    }

    public static NativeValue toNative(HandleValue v) {
        int ttlType = 0;
        int ttl = DEFAULT_TTL;
        JsonNode t = v.ttl();
        if (t != null && t.isIntegralNumber()) {
            ttl = (int) Math.min(Integer.MAX_VALUE, Math.max(0, t.asLong()));
        } else if (t != null && t.isTextual()) {
            Long at = epochSeconds(t.asText());
            if (at != null) {
                ttlType = 1;
                ttl = (int) Math.min(Integer.MAX_VALUE, at);
            }
        }
        Long stamp = v.timestamp() == null ? null : epochSeconds(v.timestamp());
        String flags = ValuePermissions.of(v);
        int permissions = (flags.charAt(0) == '1' ? NativeValue.ADMIN_READ : 0) | (flags.charAt(1) == '1' ? NativeValue.ADMIN_WRITE : 0)
                | (flags.charAt(2) == '1' ? NativeValue.PUBLIC_READ : 0) | (flags.charAt(3) == '1' ? NativeValue.PUBLIC_WRITE : 0);
        return new NativeValue(v.index(), stamp == null ? 0 : (int) Math.min(Integer.MAX_VALUE, stamp), ttlType, ttl, permissions,
                v.type().getBytes(StandardCharsets.UTF_8), data(v.data()), List.of());
    }

    public static byte[] data(HandleValue.Data d) {
        if (d == null || d.value() == null || d.value().isNull()) {
            return new byte[0];
        }
        JsonNode value = d.value();
        String format = d.format() == null ? "string" : d.format();
        try {
            return switch (format) {
                case "hex" -> HexFormat.of().parseHex(value.asText());
                case "base64" -> Base64.getDecoder().decode(value.asText());
                case "admin" -> adminRecord(value);
                case "vlist" -> referenceList(value);
                default -> (value.isTextual() ? value.asText() : value.toString()).getBytes(StandardCharsets.UTF_8);
            };
        } catch (IllegalArgumentException e) {
            return value.asText().getBytes(StandardCharsets.UTF_8);
        }
    }

    private static byte[] adminRecord(JsonNode admin) {
        // permission i (AdminPermissions' order, CNRI's bit i) is the i-th character from the right
        String bits = AdminPermissions.normalized(admin.path("permissions").asText(""));
        int mask = 0;
        for (AdminPermissions p : AdminPermissions.values()) {
            if (bits != null && p.grantedBy(bits)) {
                mask |= 1 << p.ordinal();
            }
        }
        return new WireWriter(64).int2(mask).bytes(admin.path("handle").asText("").getBytes(StandardCharsets.UTF_8))
                .int4(admin.path("index").asInt(0)).toByteArray();
    }

    private static byte[] referenceList(JsonNode list) {
        WireWriter out = new WireWriter(64).int4(list.size());
        for (JsonNode ref : list) {
            out.bytes(ref.path("handle").asText("").getBytes(StandardCharsets.UTF_8)).int4(ref.path("index").asInt(0));
        }
        return out.toByteArray();
    }

    /** A value received over the protocol, in Ferry's shape; {@code null} data formats never occur. */
    public static HandleValue fromNative(NativeValue n) {
        String type = n.typeName();
        HandleValue.Data data;
        if (HandleValue.HS_ADMIN.equals(type)) {
            data = new HandleValue.Data("admin", admin(n.data()));
        } else if (HS_VLIST.equals(type)) {
            data = new HandleValue.Data("vlist", references(n.data()));
        } else {
            String text = text(n.data());
            data = text != null ? new HandleValue.Data("string", TextNode.valueOf(text))
                    : new HandleValue.Data("base64", TextNode.valueOf(Base64.getEncoder().encodeToString(n.data())));
        }
        JsonNode ttl = n.ttlType() == 1
                ? TextNode.valueOf(OffsetDateTime.ofInstant(Instant.ofEpochSecond(n.ttl() & 0xffffffffL), ZoneOffset.UTC).format(TIMESTAMP))
                : IntNode.valueOf(Math.max(0, n.ttl()));
        int p = n.permissions();
        return new HandleValue(n.index(), type, data, ttl, null, ValuePermissions.fromColumns((p & NativeValue.ADMIN_READ) != 0,
                (p & NativeValue.ADMIN_WRITE) != 0, (p & NativeValue.PUBLIC_READ) != 0, (p & NativeValue.PUBLIC_WRITE) != 0));
    }

    private static ObjectNode admin(byte[] data) {
        WireReader in = new WireReader(data, 0, data.length);
        int mask = in.int2();
        byte[] handle = in.bytes();
        int index = in.int4();
        // Records written by old CNRI software carry 2 more bytes of permissions at the end.
        if (!in.atEnd() && data.length - in.position() != 2) {
            throw new ProtocolException("unexpected bytes after the admin record");
        }
        StringBuilder bits = new StringBuilder(12);
        for (int i = 11; i >= 0; i--) {
            bits.append((mask & (1 << i)) != 0 ? '1' : '0');
        }
        return JsonNodeFactory.instance.objectNode().put("handle", new String(handle, StandardCharsets.UTF_8)).put("index", index)
                .put("permissions", bits.toString());
    }

    private static ArrayNode references(byte[] data) {
        WireReader in = new WireReader(data, 0, data.length);
        int n = in.count(8);
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < n; i++) {
            out.addObject().put("handle", new String(in.bytes(), StandardCharsets.UTF_8)).put("index", in.int4());
        }
        if (!in.atEnd()) {
            throw new ProtocolException("unexpected bytes after the reference list");
        }
        return out;
    }

    /** The bytes as text when they are UTF-8 without control characters other than tab and line breaks. */
    private static String text(byte[] data) {
        String s;
        try {
            s = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(data)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
                return null;
            }
        }
        return s;
    }

    private static Long epochSeconds(String iso) {
        try {
            return OffsetDateTime.parse(iso).toEpochSecond();
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}
