package io.ferry.storageurl;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A storage URL in Ferry's one canonical form. Every URL that names storage (a job's source or destination, an SE's
 * base URL, a replica's transport URL) is parsed once into this form; SEs are matched on it, it is what is stored,
 * and it is the only form sent to a storage server. So the question "is this path under that SE?" is answered on
 * exactly the path the server will act on.
 *
 * <p>Why decode here: a server decodes percent-escapes before it resolves dot-segments (nginx does), so
 * {@code /se-a/%2E%2e/x} names {@code /x} on the server while a check of the raw text sees no {@code ..}. The path is
 * therefore decoded once, and a URL is refused when its decoded path could mean something else to a server:
 * <ul>
 *   <li>a {@code .} or {@code ..} segment, in any spelling ({@code %2e}, {@code .%2E}, …);</li>
 *   <li>an encoded separator ({@code %2F}, {@code %5C}) or a raw backslash: a segment must not split on the
 *       server;</li>
 *   <li>{@code ;} (path parameters, which servlet containers strip before matching), NUL and control
 *       characters (C0 and C1), a decoded {@code %} (an escape again to a server that decodes twice), and Unicode
 *       look-alikes of {@code .} and {@code /} that NFKC folds into them;</li>
 *   <li>user info, a query or a fragment, malformed escapes and invalid UTF-8.</li>
 * </ul>
 * Empty segments ({@code //}) are folded, as servers fold them. The canonical text has a lower-case scheme and host,
 * no default port, and each segment re-encoded the same way.
 */
public final class StorageUrl {

    /** Longer URLs are refused: no storage path is this long, and every check here is linear in it. */
    public static final int MAX_LENGTH = 4096;

    private final String scheme;
    private final String host;
    private final int port;
    private final List<String> segments;
    private final boolean directory;
    private final String canonical;

    private StorageUrl(String scheme, String host, int port, List<String> segments, boolean directory) {
        this.scheme = scheme;
        this.host = host;
        this.port = port;
        this.segments = List.copyOf(segments);
        this.directory = directory;
        this.canonical = scheme + "://" + host + (port < 0 ? "" : ":" + port) + encodePath(this.segments, directory);
    }

    /** The canonical form of {@code raw}, or {@link InvalidStorageUrl} saying why it has none. */
    public static StorageUrl parse(String raw) {
        if (raw == null || raw.isEmpty()) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "empty URL");
        }
        if (raw.length() > MAX_LENGTH) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.TOO_LONG, "longer than " + MAX_LENGTH + " characters");
        }
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c <= 0x20 || c == 0x7f) {
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.FORBIDDEN_CHARACTER,
                        "a space or control character at " + i);
            }
            if (c == '\\') {
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.ENCODED_SEPARATOR, "a backslash at " + i);
            }
            if (c == '?') {
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.QUERY, "storage URLs take no query");
            }
            if (c == '#') {
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.FRAGMENT, "storage URLs take no fragment");
            }
        }
        int colon = raw.indexOf(':');
        if (colon <= 0 || !validScheme(raw, colon)) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.NO_SCHEME, "no scheme");
        }
        String scheme = raw.substring(0, colon).toLowerCase(Locale.ROOT);
        String rest = raw.substring(colon + 1);
        String authority;
        String rawPath;
        if (rest.startsWith("//")) {
            int slash = rest.indexOf('/', 2);
            authority = slash < 0 ? rest.substring(2) : rest.substring(2, slash);
            rawPath = slash < 0 ? "" : rest.substring(slash);
        } else if (rest.startsWith("/")) {
            authority = "";
            rawPath = rest;
        } else {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "not a hierarchical URL");
        }
        if (authority.indexOf('@') >= 0) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.USER_INFO, "storage URLs take no user info");
        }
        String host;
        int port = -1;
        int portColon = authority.startsWith("[") ? authority.indexOf(':', Math.max(0, authority.indexOf(']')))
                : authority.indexOf(':');
        host = (portColon < 0 ? authority : authority.substring(0, portColon)).toLowerCase(Locale.ROOT);
        if (portColon >= 0) {
            port = parsePort(authority.substring(portColon + 1));
        }
        validateHost(scheme, host);
        if ("file".equals(scheme)) {
            if (port >= 0) {
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "file URLs take no port");
            }
            if ("localhost".equals(host)) {
                host = "";
            }
        } else if (host.isEmpty()) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "no host");
        }
        if (port == defaultPort(scheme)) {
            port = -1;
        }
        if (rawPath.indexOf(';') >= 0) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.FORBIDDEN_CHARACTER, "';' in the path");
        }
        List<String> segments = new ArrayList<>();
        int start = 1;
        while (start <= rawPath.length()) {
            int end = rawPath.indexOf('/', start);
            if (end < 0) {
                end = rawPath.length();
            }
            if (end > start) {
                segments.add(checkedSegment(decode(rawPath, start, end)));
            }
            start = end + 1;
        }
        boolean directory = rawPath.isEmpty() || rawPath.endsWith("/");
        return new StorageUrl(scheme, host, port, segments, directory);
    }

    /** The canonical form, or empty when {@code raw} has none. */
    public static Optional<StorageUrl> tryParse(String raw) {
        try {
            return Optional.of(parse(raw));
        } catch (InvalidStorageUrl e) {
            return Optional.empty();
        }
    }

    /**
     * This URL with {@code decodedPath} below it (each segment of it checked as a parsed path's are): how a replica's
     * path becomes a transport URL under an SE's base URL.
     */
    public StorageUrl resolve(String decodedPath) {
        if (decodedPath == null) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "no path");
        }
        if (decodedPath.length() > MAX_LENGTH) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.TOO_LONG, "longer than " + MAX_LENGTH + " characters");
        }
        List<String> joined = new ArrayList<>(segments);
        joined.addAll(decodedSegments(decodedPath));
        boolean dir = decodedPath.isEmpty() ? directory : decodedPath.endsWith("/");
        StorageUrl child = new StorageUrl(scheme, host, port, joined, dir);
        if (child.canonical.length() > MAX_LENGTH) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.TOO_LONG, "longer than " + MAX_LENGTH + " characters");
        }
        return child;
    }

    /**
     * The segments of a decoded path ("/atlas/a b/" → [atlas, a b]), each checked as a parsed path's are (no
     * {@code .}/{@code ..}, separators, {@code ;}, NUL or control characters); empty segments folded. For paths that
     * are given decoded, such as a path prefix in an SE's access rules.
     */
    public static List<String> decodedSegments(String decodedPath) {
        if (decodedPath == null) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "no path");
        }
        if (decodedPath.length() > MAX_LENGTH) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.TOO_LONG, "longer than " + MAX_LENGTH + " characters");
        }
        List<String> out = new ArrayList<>();
        for (String segment : decodedPath.split("/", -1)) {
            if (!segment.isEmpty()) {
                out.add(checkedSegment(segment));
            }
        }
        return out;
    }

    /** The same location under another scheme of the same transport (davs → https for the HTTP mover). */
    public StorageUrl withScheme(String newScheme) {
        String s = newScheme.toLowerCase(Locale.ROOT);
        int p = port < 0 ? defaultPort(scheme) : port;
        return new StorageUrl(s, host, p == defaultPort(s) ? -1 : p, segments, directory);
    }

    /**
     * Whether this URL lies strictly below {@code base} (same scheme, host and port; the base's segments a prefix of
     * this one's, and at least one segment more). Segment-wise, so {@code /se-a} never contains {@code /se-ab/x}.
     */
    public boolean isWithin(StorageUrl base) {
        return scheme.equals(base.scheme) && host.equals(base.host) && port == base.port
                && segments.size() > base.segments.size()
                && segments.subList(0, base.segments.size()).equals(base.segments);
    }

    /** The decoded path below {@code base} ("a/b"), for a URL {@link #isWithin} it. */
    public String pathBelow(StorageUrl base) {
        if (!isWithin(base)) {
            throw new IllegalArgumentException(canonical + " is not below " + base.canonical);
        }
        return String.join("/", segments.subList(base.segments.size(), segments.size())) + (directory ? "/" : "");
    }

    public String scheme() {
        return scheme;
    }

    /** Lower case; empty for {@code file} URLs. */
    public String host() {
        return host;
    }

    /** The explicit port, or -1 for the scheme's default. */
    public int port() {
        return port;
    }

    /** The port a connection goes to: the explicit one or the scheme's default (-1 where it has none). */
    public int effectivePort() {
        return port >= 0 ? port : defaultPort(scheme);
    }

    /** The decoded path, starting with '/': for file URLs the file system path. */
    public String path() {
        return "/" + String.join("/", segments) + (directory && !segments.isEmpty() ? "/" : "");
    }

    /** The path as sent on the wire (each segment percent-encoded the canonical way). */
    public String encodedPath() {
        return encodePath(segments, directory);
    }

    /** The decoded segments of the path. */
    public List<String> segments() {
        return segments;
    }

    public boolean isDirectory() {
        return directory;
    }

    /** The last segment, decoded ("" for the root). */
    public String fileName() {
        return segments.isEmpty() ? "" : segments.get(segments.size() - 1);
    }

    public URI toUri() {
        return URI.create(canonical);
    }

    @Override
    public String toString() {
        return canonical;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StorageUrl other && canonical.equals(other.canonical);
    }

    @Override
    public int hashCode() {
        return canonical.hashCode();
    }

    /** The scheme's well-known port, folded away in the canonical form; -1 where there is none. */
    public static int defaultPort(String scheme) {
        return switch (scheme) {
            case "http", "dav", "s3" -> 80;
            case "https", "davs", "s3s" -> 443;
            case "root", "roots" -> 1094;
            case "gsiftp" -> 2811;
            default -> -1;
        };
    }

    private static boolean validScheme(String raw, int colon) {
        if (!Character.isLetter(raw.charAt(0)) || raw.charAt(0) > 0x7f) {
            return false;
        }
        for (int i = 1; i < colon; i++) {
            char c = raw.charAt(i);
            if (!(c < 0x80 && (Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.'))) {
                return false;
            }
        }
        return true;
    }

    private static int parsePort(String digits) {
        if (digits.isEmpty() || digits.length() > 5) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "bad port");
        }
        int port = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "bad port");
            }
            port = port * 10 + (c - '0');
        }
        if (port < 1 || port > 65535) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "port out of range");
        }
        return port;
    }

    private static void validateHost(String scheme, String host) {
        if (host.startsWith("[")) {
            if (!host.endsWith("]") || host.length() < 4) {
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "bad IPv6 host");
            }
            for (int i = 1; i < host.length() - 1; i++) {
                char c = host.charAt(i);
                if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
                    throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "bad IPv6 host");
                }
            }
            return;
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_')) {
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "bad host name");
            }
        }
    }

    private static String decode(String raw, int start, int end) {
        if (raw.indexOf('%', start) < 0 || raw.indexOf('%', start) >= end) {
            return raw.substring(start, end);
        }
        ByteBuffer bytes = ByteBuffer.allocate((end - start) * 3);
        for (int i = start; i < end; i++) {
            char c = raw.charAt(i);
            if (c == '%') {
                int hi = i + 2 < end ? Character.digit(raw.charAt(i + 1), 16) : -1;
                int lo = i + 2 < end ? Character.digit(raw.charAt(i + 2), 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw new InvalidStorageUrl(InvalidStorageUrl.Reason.BAD_ESCAPE, "a malformed percent-escape");
                }
                bytes.put((byte) (hi * 16 + lo));
                i += 2;
            } else {
                bytes.put(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        bytes.flip();
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(bytes).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.BAD_ESCAPE, "escapes that are not UTF-8");
        }
    }

    private static String checkedSegment(String segment) {
        if (segment.equals(".") || segment.equals("..")) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.DOT_SEGMENT, "a '" + segment + "' segment");
        }
        boolean ascii = true;
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '/' || c == '\\') {
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.ENCODED_SEPARATOR,
                        "an encoded path separator in a segment");
            }
            if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == ';') {
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.FORBIDDEN_CHARACTER,
                        c == ';' ? "';' in the path" : "a NUL or control character in the path");
            }
            if (c == '%') {
                // a decoded '%' is an escape to a server that decodes twice (%252e%252e would be '..' there)
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.FORBIDDEN_CHARACTER,
                        "a percent sign in the decoded path");
            }
            ascii &= c < 0x80;
        }
        if (!ascii) {
            checkLookAlikes(segment);
        }
        return segment;
    }

    /**
     * Refuses a segment that a server normalising Unicode (NFKC, as some file systems and gateways do) would read as a
     * dot-segment, a separator or an escape: fullwidth '.' and '/', one-dot leaders, fraction and division slashes.
     */
    private static void checkLookAlikes(String segment) {
        String folded = java.text.Normalizer.normalize(segment, java.text.Normalizer.Form.NFKC);
        if (folded.equals(".") || folded.equals("..")) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.DOT_SEGMENT, "a segment that reads as a dot-segment");
        }
        for (int i = 0; i < folded.length(); i++) {
            char c = folded.charAt(i);
            if (c == '/' || c == '\\' || c == '%' || c == '\u2215' || c == '\u2044' || c == '\u29f8') {
                throw new InvalidStorageUrl(InvalidStorageUrl.Reason.ENCODED_SEPARATOR,
                        "a character that reads as a path separator or an escape");
            }
        }
    }

    private static String encodePath(List<String> segments, boolean directory) {
        StringBuilder out = new StringBuilder("/");
        for (int i = 0; i < segments.size(); i++) {
            if (i > 0) {
                out.append('/');
            }
            encodeSegment(segments.get(i), out);
        }
        if (directory && !segments.isEmpty()) {
            out.append('/');
        }
        return out.toString();
    }

    private static final String HEX = "0123456789ABCDEF";

    private static void encodeSegment(String segment, StringBuilder out) {
        for (byte b : segment.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "-._~!$&'()*+,=:@".indexOf(c) >= 0) {
                out.append((char) c);
            } else {
                out.append('%').append(HEX.charAt(c >> 4)).append(HEX.charAt(c & 0xf));
            }
        }
    }
}
