package io.ferry.resolver.rest;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Cache-Control, Expires and Vary of a resolution, from the smallest TTL of the values it carries; the same for
 * answers from the cache and from the database. A caller with a token may read values without public read, so an
 * answer to a request with {@code Authorization} is private, and every answer varies on that header: a shared cache
 * never serves a token's answer to anyone else.
 */
public final class CacheHeaders {

    public static final String CACHE_CONTROL = "Cache-Control";
    public static final String EXPIRES = "Expires";
    public static final String VARY = "Vary";
    public static final String AUTHORIZATION = "Authorization";
    /** RFC 7231's IMF-fixdate (two-digit day), as JAX-RS writes dates. */
    static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
            .withZone(ZoneOffset.UTC);

    private CacheHeaders() {
    }

    public static String cacheControl(long ttlSeconds) {
        long maxAge = Math.min(Integer.MAX_VALUE, Math.max(0, ttlSeconds));
        Formatted last = lastCacheControl;
        if (last.from() == maxAge) {
            return last.text();
        }
        String value = "no-transform, max-age=" + maxAge;
        lastCacheControl = new Formatted(maxAge, value);
        return value;
    }

    /** For an answer to a request with a token: only the caller's own cache may keep it. */
    public static String privateCacheControl(long ttlSeconds) {
        return "private, " + cacheControl(ttlSeconds);
    }

    /**
     * The last value formatted and what it was made from, kept because consecutive answers mostly expire at the same
     * second and carry the same TTL (a cached answer is written per request, so this saves a string per request).
     */
    private record Formatted(long from, String text) {
    }

    private static volatile Formatted lastExpiry = new Formatted(Long.MIN_VALUE, "");
    private static volatile Formatted lastCacheControl = new Formatted(Long.MIN_VALUE, "");

    public static String expires(long nowEpochSecond, long ttlSeconds) {
        long at = nowEpochSecond + Math.max(0, ttlSeconds);
        Formatted last = lastExpiry;
        if (last.from() == at) {
            return last.text();
        }
        String date = HTTP_DATE.format(Instant.ofEpochSecond(at));
        lastExpiry = new Formatted(at, date);
        return date;
    }
}
