package io.ferry.resolver.model;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The parameters of CNRI's {@code Authorization: Handle k="v", …} header (and of the same fields given as query
 * parameters or a JSON body to {@code /api/sessions}): {@code sessionId}, {@code id} ({@code index:handle},
 * percent-encoded or not), {@code type} ({@code HS_SECKEY}/{@code HS_PUBKEY}), {@code alg}, {@code cnonce},
 * {@code signature}, and PBKDF2's {@code salt}, {@code iterations}, {@code length}. Names are case-insensitive;
 * values are tokens or quoted strings with backslash escapes.
 */
public record HandleAuthorization(Map<String, String> fields) {

    private static final String SCHEME = "handle";
    private static final String TOKEN = "[-A-Za-z0-9!#$%&'*+.`^_|~]+";
    private static final String QUOTED = "\"(?:[^\\\\\"]|\\\\.)*\"";
    private static final Pattern PARAM = Pattern.compile("\\s*(" + TOKEN + ")\\s*=\\s*(" + TOKEN + "|" + QUOTED + ")\\s*(,\\s*)*", Pattern.DOTALL);

    /** Whether an Authorization header uses the {@code Handle} scheme. */
    public static boolean isHandle(String authorization) {
        return authorization != null && authorization.stripLeading().regionMatches(true, 0, SCHEME, 0, SCHEME.length())
                && (authorization.stripLeading().length() == SCHEME.length() || Character.isWhitespace(authorization.stripLeading().charAt(SCHEME.length())));
    }

    /** The header's parameters, or null when it is not a well-formed {@code Handle} header. */
    public static HandleAuthorization parse(String authorization) {
        if (!isHandle(authorization)) {
            return null;
        }
        String params = authorization.stripLeading().substring(SCHEME.length());
        if (params.isBlank()) {
            return null;
        }
        Map<String, String> fields = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        Matcher m = PARAM.matcher(params);
        int at = 0;
        boolean separated = true;
        while (at < params.length() && m.find(at) && m.start() == at) {
            if (!separated) {
                return null;
            }
            String value = unquote(m.group(2));
            if ("id".equalsIgnoreCase(m.group(1))) {
                value = URLDecoder.decode(value.replace("+", "%2B"), StandardCharsets.UTF_8);
            }
            fields.put(m.group(1), value);
            separated = m.group(3) != null;
            at = m.end();
        }
        return at == params.length() ? new HandleAuthorization(fields) : null;
    }

    /** These fields, with {@code others} added where absent (CNRI lets the sessions API take them from the body). */
    public HandleAuthorization withDefaults(Map<String, String> others) {
        Map<String, String> merged = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        merged.putAll(others);
        merged.putAll(fields);
        return new HandleAuthorization(merged);
    }

    public static HandleAuthorization empty() {
        return new HandleAuthorization(new TreeMap<>(String.CASE_INSENSITIVE_ORDER));
    }

    public String get(String name) {
        return fields.get(name);
    }

    public String sessionId() {
        return get("sessionId");
    }

    /** Whether the header tries to prove an identity (as opposed to naming a session only). */
    public boolean authenticating() {
        return get("id") != null || get("type") != null || get("alg") != null || get("signature") != null;
    }

    /** Whether a field an answer needs is missing. */
    public boolean incomplete() {
        return get("id") == null || get("cnonce") == null || get("type") == null || get("alg") == null || get("signature") == null;
    }

    /** Whether the header names a version this server does not speak (CNRI's is 0). */
    public boolean unknownVersion() {
        String version = get("version");
        return version != null && !"0".equals(version.trim().toLowerCase(Locale.ROOT));
    }

    private static String unquote(String s) {
        if (s.length() < 2 || !s.startsWith("\"") || !s.endsWith("\"")) {
            return s;
        }
        return s.substring(1, s.length() - 1).replaceAll("\\\\(.)", "$1");
    }
}
