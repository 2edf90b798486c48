package io.ferry.resolver.model;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** What makes handle values acceptable; the first offence is reported as Handle.net's 202 Invalid Value. */
public final class ValueRules {

    public static final int MAX_VALUES = 1000;
    public static final int MAX_DATA_CHARS = 65_536;
    static final Set<String> FORMATS = Set.of("string", "base64", "hex", "admin", "vlist", "site", "key");

    private ValueRules() {
    }

    /** The problem with {@code values}, or null when they are valid. */
    public static String check(List<HandleValue> values) {
        if (values.size() > MAX_VALUES) {
            return "at most " + MAX_VALUES + " values per handle";
        }
        Set<Integer> seen = new HashSet<>();
        for (HandleValue v : values) {
            String at = "value " + v.index();
            if (v.index() == null || v.index() <= 0) {
                return "every value needs a positive index";
            }
            if (!seen.add(v.index())) {
                return "index " + v.index() + " appears twice";
            }
            if (v.type() == null || v.type().isBlank() || v.type().length() > 255) {
                return at + ": type must be 1 to 255 characters";
            }
            if (v.data() == null || v.data().format() == null || !FORMATS.contains(v.data().format())) {
                return at + ": data.format must be one of string, base64, hex, admin, vlist, site, key";
            }
            JsonNode value = v.data().value();
            if (value == null || value.isNull()) {
                return at + ": data.value is required";
            }
            String text = value.toString();
            if (text.length() > MAX_DATA_CHARS) {
                return at + ": data.value is larger than " + MAX_DATA_CHARS + " characters";
            }
            if (hasNul(value) || v.type().indexOf('\0') >= 0) {
                // PostgreSQL stores no NUL in text or JSON
                return at + ": NUL characters cannot be stored";
            }
            String problem = switch (v.data().format()) {
                case "string" -> value.isTextual() ? null : "a string value must be a JSON string";
                case "base64" -> base64(value);
                case "hex" -> value.isTextual() && value.asText().matches("([0-9A-Fa-f]{2})*") ? null : "not hex";
                case "admin" -> admin(value);
                case "site" -> value.isObject() && value.path("servers").isArray() ? null : "a site value is an object with servers";
                case "key" -> value.isObject() && value.path("kty").isTextual() ? null : "a key value is a JSON Web Key (an object with kty)";
                default -> vlist(value);
            };
            if (problem != null) {
                return at + ": " + problem;
            }
            if (HandleValue.HS_ADMIN.equals(v.type()) && !"admin".equals(v.data().format())) {
                return at + ": HS_ADMIN values take the admin format";
            }
            if (v.permissions() != null && !ValuePermissions.valid(v.permissions())) {
                return at + ": permissions must be 4 characters of 0 and 1 (admin read, admin write, public read, public write)";
            }
            String target = target(v);
            if (target != null) {
                return at + ": " + target;
            }
            String ttl = ttl(v.ttl());
            if (ttl != null) {
                return at + ": " + ttl;
            }
        }
        return null;
    }

    /** URL values are what the proxy redirects to, and an HS_ALIAS names the handle it redirects to. */
    static String target(HandleValue v) {
        if (!"string".equals(v.data().format())) {
            return null;
        }
        if (HandleValue.URL.equals(v.type()) && !RedirectTarget.allowed(v.data().value().asText())) {
            return "a URL value must be an absolute " + String.join(", ", new java.util.TreeSet<>(RedirectTarget.SCHEMES))
                    + " URL with a host";
        }
        if (HandleValue.HS_ALIAS.equals(v.type()) && HandleName.parse(v.data().value().asText()) == null) {
            return "an HS_ALIAS value must be a handle prefix/suffix";
        }
        return null;
    }

    /** The problem with the locations of a 10320/loc value (parsed once, by the caller), or null. */
    public static String locations(HandleValue v, List<Locations.Location> parsed) {
        for (Locations.Location l : parsed) {
            if (!RedirectTarget.allowed(l.href())) {
                return "value " + v.index() + ": every 10320/loc href must be an absolute "
                        + String.join(", ", new java.util.TreeSet<>(RedirectTarget.SCHEMES)) + " URL with a host";
            }
        }
        return null;
    }

    /** Whether any text or field name in {@code node} holds a NUL character. */
    static boolean hasNul(JsonNode node) {
        if (node.isTextual()) {
            return node.asText().indexOf('\0') >= 0;
        }
        var fields = node.fields();
        while (fields.hasNext()) {
            var f = fields.next();
            if (f.getKey().indexOf('\0') >= 0 || hasNul(f.getValue())) {
                return true;
            }
        }
        if (node.isArray()) {
            for (JsonNode element : node) {
                if (hasNul(element)) {
                    return true;
                }
            }
        }
        return false;
    }

    static String base64(JsonNode value) {
        if (!value.isTextual()) {
            return "a base64 value must be a JSON string";
        }
        try {
            Base64.getDecoder().decode(value.asText());
            return null;
        } catch (IllegalArgumentException e) {
            return "not base64";
        }
    }

    static String admin(JsonNode value) {
        if (!value.isObject() || HandleName.parse(value.path("handle").asText("")) == null && !value.path("handle").asText("").matches("[A-Za-z0-9@._:-]{1,200}")) {
            return "admin values need a handle (or token subject)";
        }
        if (!value.path("index").canConvertToInt()) {
            return "admin values need an integer index";
        }
        return AdminPermissions.valid(value.path("permissions").asText(null)) ? null : "permissions must be up to 12 characters of 0 and 1, or *";
    }

    static String vlist(JsonNode value) {
        if (!value.isArray()) {
            return "a vlist value is a list of {handle, index}";
        }
        for (JsonNode ref : value) {
            if (HandleName.parse(ref.path("handle").asText("")) == null || !ref.path("index").canConvertToInt()) {
                return "every vlist entry needs a handle and an integer index";
            }
        }
        return null;
    }

    static String ttl(JsonNode ttl) {
        if (ttl == null || ttl.isNull()) {
            return null;
        }
        if (ttl.isIntegralNumber()) {
            return ttl.asLong() >= 0 && ttl.asLong() <= Integer.MAX_VALUE ? null : "ttl seconds must be between 0 and 2147483647";
        }
        if (ttl.isTextual()) {
            try {
                OffsetDateTime.parse(ttl.asText());
                return null;
            } catch (DateTimeParseException e) {
                return "ttl must be seconds or an ISO-8601 expiry time";
            }
        }
        return "ttl must be seconds or an ISO-8601 expiry time";
    }

    /** Handle.net's TTL when a value gives none, and of an answer without values. */
    public static final long DEFAULT_TTL = 86400;

    /**
     * The TTLs of some values, kept as their two kinds so that the answer's TTL can be worked out at any moment: the
     * smallest relative TTL (seconds) and the earliest absolute expiry (epoch seconds), {@code Long.MAX_VALUE} where
     * there is none.
     */
    public record TtlBounds(long relative, long absoluteExpiry) {

        public long secondsAt(long nowEpochSecond) {
            return ttlAt(relative, absoluteExpiry, nowEpochSecond);
        }
    }

    public static TtlBounds ttlBounds(List<HandleValue> values) {
        long relative = Long.MAX_VALUE;
        long absolute = Long.MAX_VALUE;
        for (HandleValue v : values) {
            JsonNode t = v.ttl();
            if (t != null && t.isTextual()) {
                absolute = Math.min(absolute, OffsetDateTime.parse(t.asText()).toEpochSecond());
            } else {
                relative = Math.min(relative, Math.max(0, t == null ? DEFAULT_TTL : t.asLong()));
            }
        }
        return new TtlBounds(relative, absolute);
    }

    /** Seconds until the earlier of a relative TTL and an absolute expiry ends, never negative; the default if neither. */
    public static long ttlAt(long relative, long absoluteExpiry, long nowEpochSecond) {
        long ttl = relative;
        if (absoluteExpiry != Long.MAX_VALUE) {
            ttl = Math.min(ttl, Math.max(0, absoluteExpiry - nowEpochSecond));
        }
        return ttl == Long.MAX_VALUE ? DEFAULT_TTL : ttl;
    }

    /** Seconds until the earliest of the values' TTLs ends (relative seconds or absolute expiry), never negative. */
    public static long minTtlSeconds(List<HandleValue> values, OffsetDateTime now) {
        return ttlBounds(values).secondsAt(now.toEpochSecond());
    }
}
