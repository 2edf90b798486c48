package io.ferry.resolver.model;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Where the proxy may send a browser. A target is an absolute URI with a host and one of the schemes
 * {@link #SCHEMES} (http, https, ftp: what resolvers of persistent identifiers point at). Everything else —
 * {@code javascript:}, {@code data:}, {@code vbscript:}, {@code file:}, scheme-relative {@code //host}, relative
 * references, text that is not a URI — is never a redirect. {@code urlappend} may only extend the target's path,
 * query or fragment: the joined URL must keep the target's scheme and authority.
 */
public final class RedirectTarget {

    public static final Set<String> SCHEMES = Set.of("http", "https", "ftp");
    public static final int MAX_APPEND = 2048;
    static final int MAX_LENGTH = 8192;

    /** Why a {@code urlappend} is refused (null: it is acceptable). */
    public static final class BadAppend extends IllegalArgumentException {
        BadAppend(String message) {
            super(message);
        }
    }

    private RedirectTarget() {
    }

    /** Whether {@code url} may be a redirect target. */
    public static boolean allowed(String url) {
        return parsed(url).isPresent();
    }

    private static Optional<URI> parsed(String url) {
        if (url == null || url.isEmpty() || url.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        for (int i = 0; i < url.length(); i++) {
            char c = url.charAt(i);
            if (c <= 0x20 || c == 0x7f || c == '\\') {
                return Optional.empty();
            }
        }
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        if (u.getScheme() == null || !SCHEMES.contains(u.getScheme().toLowerCase(Locale.ROOT)) || u.isOpaque()
                || u.getRawAuthority() == null || u.getHost() == null || u.getHost().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(u);
    }

    /**
     * The characters of a {@code urlappend} checked on their own (before any handle is read): control characters,
     * spaces and backslashes (which browsers read as '/') are refused, as is more than {@value #MAX_APPEND}
     * characters.
     */
    public static void checkAppend(String append) {
        if (append == null) {
            return;
        }
        if (append.length() > MAX_APPEND) {
            throw new BadAppend("longer than " + MAX_APPEND + " characters");
        }
        for (int i = 0; i < append.length(); i++) {
            char c = append.charAt(i);
            if (c <= 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == '\\') {
                throw new BadAppend("a space, control character or backslash at " + i);
            }
        }
    }

    /**
     * {@code target} (an {@link #allowed} one) with {@code append} after it; {@link BadAppend} when the result would
     * leave the target's scheme and authority (e.g. {@code https://a.example} + {@code @evil.example} or
     * {@code .evil.example}) or is no URI.
     */
    public static String append(String target, String append) {
        checkAppend(append);
        if (append == null || append.isEmpty()) {
            return target;
        }
        URI base = parsed(target).orElseThrow(() -> new BadAppend("the handle's URL cannot be extended"));
        String extra = encodeNonAscii(append);
        boolean onlyAuthority = (base.getRawPath() == null || base.getRawPath().isEmpty())
                && base.getRawQuery() == null && base.getRawFragment() == null;
        if (onlyAuthority && "/?#".indexOf(extra.charAt(0)) < 0) {
            // https://a.example + "@evil.example" or ".evil.example" or ":8443" would change the host
            throw new BadAppend("the handle's URL has no path: urlappend must start with '/', '?' or '#'");
        }
        String joined = target + extra;
        URI after = parsed(joined).orElseThrow(() -> new BadAppend("the extended URL is not a valid URL"));
        if (!base.getScheme().equalsIgnoreCase(after.getScheme()) || !Objects.equals(base.getRawAuthority(), after.getRawAuthority())) {
            throw new BadAppend("urlappend may extend the path or query only, not change the host");
        }
        return joined;
    }

    /** Non-ASCII characters as UTF-8 percent-escapes, so that the Location header stays ASCII. */
    private static String encodeNonAscii(String s) {
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                if (out != null) {
                    out.append(c);
                }
                continue;
            }
            if (out == null) {
                out = new StringBuilder(s.length() + 16).append(s, 0, i);
            }
            int cp = s.codePointAt(i);
            if (Character.charCount(cp) == 2) {
                i++;
            }
            for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                out.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xf, 16)));
            }
        }
        return out == null ? s : out.toString();
    }

    /** The proxy's relative redirect to another handle ({@code /prefix/suffix}, escaped), for an alias that is one. */
    public static Optional<String> aliasPath(String alias) {
        if (HandleName.parse(alias) == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new URI(null, null, "/" + alias, null).toASCIIString());
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }
}
