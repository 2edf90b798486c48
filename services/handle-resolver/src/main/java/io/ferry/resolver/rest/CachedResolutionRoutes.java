package io.ferry.resolver.rest;

import io.ferry.resolver.cache.ResolutionCache;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.impl.HttpServerRequestInternal;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * The resolver's hot path: a plain {@code GET /api/handles/{handle}} or proxy redirect {@code GET /{handle}} whose
 * answer is in the {@link ResolutionCache} is written straight from the event loop, before JAX-RS routing. Anything
 * else (a miss, query parameters, percent-escapes, content negotiation the cached answer does not fit) goes on to
 * {@link HandleApiResource} and {@link ProxyResource}, which give the same answers from the database. Measured on
 * the benchmark, this path costs a fraction of the JAX-RS one (services/handle-resolver/README.md, "Resolution
 * cache"; docs/benchmarks.md).
 * <p>
 * These routes come first, before the request filters that cost more than the answer (Quarkus REST's per-request
 * match of the URI template for metrics and traces, the body-size check): a request they answer carries no body,
 * sends no credentials and needs no authentication, and its URI template is set here, as JAX-RS would set it, so
 * {@code http_server_requests_seconds} counts it under the same {@code uri} tag.
 */
@ApplicationScoped
public class CachedResolutionRoutes {

    static final String API = "/api/handles/";
    /** ProxyResource's path: a dotted numeric-led prefix, a slash, a suffix. */
    static final String PROXY = "/[0-9][0-9A-Za-z]*(?:\\.[0-9A-Za-z]+)*/.+";
    /** The request-context key under which CachedAnswerTracing leaves the answer it found. */
    static final String FOUND_ANSWER = "ferry.cached-answer";
    static final String JSON = "application/json;charset=UTF-8";
    /** Header names and fixed values as Netty's ASCII strings, whose hash is computed once, not for every answer. */
    static final CharSequence JSON_TYPE = HttpHeaders.createOptimized(JSON);
    static final CharSequence VARY_VALUE = HttpHeaders.createOptimized(CacheHeaders.AUTHORIZATION);
    /** The JAX-RS templates of {@link HandleApiResource#resolve} and {@link ProxyResource#resolve}, as metrics tag them. */
    static final String API_TEMPLATE = "/api/handles/{prefix}/{suffix: .+}";
    static final String PROXY_TEMPLATE = "/{prefix: [0-9][0-9A-Za-z]*(\\.[0-9A-Za-z]+)*}/{suffix: .+}";
    /** Where Quarkus REST keeps a request's URI template (its ObservabilityUtil), read by the metrics and tracing. */
    static final String URL_PATH_TEMPLATE = "UrlPathTemplate";
    /** Before every filter, the body-size check (at Integer.MIN_VALUE + 10) included. */
    static final int ORDER = Integer.MIN_VALUE + 5;

    final ResolutionCache cache;

    @Inject
    public CachedResolutionRoutes(ResolutionCache cache) {
        this.cache = cache;
    }

    void routes(@Observes Router router) {
        if (!cache.enabled()) {
            return;
        }
        // one route for every GET, sorted by answerOf: a regular expression per request cost more than the lookup
        router.get().order(ORDER).handler(this::answer);
    }

    boolean enabled() {
        return cache.enabled();
    }

    /**
     * The cached answer these routes give {@code request}, or null when it goes on to JAX-RS (CachedAnswerTracing
     * asks before routing; the answer it found is kept in the request's context for the route).
     */
    ResolutionCache.Entry answerOf(HttpServerRequest request) {
        if (request.method() != HttpMethod.GET || !cache.enabled()) {
            return null;
        }
        String path = request.path();
        if (path.startsWith(API)) {
            return apiAnswer(request);
        }
        return proxyPath(path) ? proxyAnswer(request) : null;
    }

    /** Whether {@code path} matches {@link #PROXY}: '/', a digit, letters and digits in dot-separated parts, '/', more. */
    static boolean proxyPath(String path) {
        int n = path.length();
        if (n < 4 || path.charAt(0) != '/' || path.charAt(1) < '0' || path.charAt(1) > '9') {
            return false;
        }
        boolean afterDot = false;
        for (int i = 2; i < n; i++) {
            char c = path.charAt(i);
            if (c == '/') {
                return !afterDot && i < n - 1 && noLineBreak(path, i + 1);
            }
            if (c == '.') {
                if (afterDot) {
                    return false;
                }
                afterDot = true;
            } else if (c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z') {
                afterDot = false;
            } else {
                return false;
            }
        }
        return false;
    }

    /** The regular expression's '.' matches anything but a line break. */
    private static boolean noLineBreak(String path, int from) {
        for (int i = from; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                return false;
            }
        }
        return true;
    }

    /** The cached answer of a plain {@code GET /api/handles/{handle}}, or null. */
    private ResolutionCache.Entry apiAnswer(HttpServerRequest request) {
        String handle = plainHandle(request, API.length() - 1);
        // The cache holds the public view: a caller with a token may read more, and is answered by HandleApiResource.
        boolean anonymous = request.getHeader(HttpHeaders.AUTHORIZATION) == null;
        return handle == null || !anonymous || !accepts(request, "application/json") ? null : cache.get(handle);
    }

    /** The cached redirect of a plain proxy {@code GET /{handle}}, or null. */
    private ResolutionCache.Entry proxyAnswer(HttpServerRequest request) {
        String handle = plainHandle(request, 0);
        ResolutionCache.Entry e = handle == null || !(accepts(request, "text/html") || accepts(request, "application/json")) ? null : cache.get(handle);
        return e == null || e.redirect() == null ? null : e;
    }

    /** Answers from the cache (the entry CachedAnswerTracing found, else the one looked up now), or passes on to JAX-RS. */
    void answer(RoutingContext ctx) {
        Object found = ((HttpServerRequestInternal) ctx.request()).context().getLocal(FOUND_ANSWER);
        ResolutionCache.Entry e = found instanceof ResolutionCache.Entry entry ? entry : answerOf(ctx.request());
        if (e == null) {
            ctx.next();
        } else if (ctx.request().path().startsWith(API)) {
            api(ctx, e);
        } else {
            proxy(ctx, e);
        }
    }

    private void api(RoutingContext ctx, ResolutionCache.Entry e) {
        template(ctx, API_TEMPLATE);
        HttpServerResponse r = ctx.response();
        r.putHeader(HttpHeaders.CONTENT_TYPE, JSON_TYPE);
        cacheHeaders(r, e);
        r.end(io.vertx.core.buffer.Buffer.buffer(e.body()));
    }

    private void proxy(RoutingContext ctx, ResolutionCache.Entry e) {
        template(ctx, PROXY_TEMPLATE);
        HttpServerResponse r = ctx.response().setStatusCode(302);
        r.putHeader(HttpHeaders.LOCATION, e.redirect());
        cacheHeaders(r, e);
        r.end();
    }

    private static void template(RoutingContext ctx, String template) {
        ((HttpServerRequestInternal) ctx.request()).context().putLocal(URL_PATH_TEMPLATE, template);
    }

    /** The handle after {@code offset} + '/', when the request is one the cache can answer exactly; else null. */
    static String plainHandle(HttpServerRequest request, int offset) {
        // A request with a body (which the filters after this route check) or a query goes the whole way.
        if (request.query() != null || request.getHeader(HttpHeaders.CONTENT_LENGTH) != null
                || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null) {
            return null;
        }
        String path = request.path();
        // Escapes and dot segments are decoded and normalized by JAX-RS routing: leave those requests to it, and
        // "/api/handles" itself (the listing, which this route also matches).
        if (path.length() <= offset + 1 || path.indexOf('%') >= 0 || path.contains("/./") || path.contains("/../") || path.contains("//")) {
            return null;
        }
        String handle = path.substring(offset + 1);
        int slash = handle.indexOf('/');
        return slash <= 0 || slash == handle.length() - 1 ? null : handle;
    }

    /** No Accept header, a wildcard, or the media type itself (ignoring parameters and q-values). */
    static boolean accepts(HttpServerRequest request, String type) {
        String accept = request.getHeader(HttpHeaders.ACCEPT);
        return accept == null || accept.isEmpty() || accept.contains("*/*") || accept.contains(type)
                || accept.contains(type.substring(0, type.indexOf('/') + 1) + "*");
    }

    /** Cache-Control and Expires, from the entry's TTLs at this second; Vary as {@link CacheHeaders} says. */
    private void cacheHeaders(HttpServerResponse r, ResolutionCache.Entry e) {
        long now = System.currentTimeMillis() / 1000;
        long ttl = e.ttlSeconds(now);
        r.putHeader(HttpHeaders.CACHE_CONTROL, CacheHeaders.cacheControl(ttl));
        r.putHeader(HttpHeaders.EXPIRES, CacheHeaders.expires(now, ttl));
        r.putHeader(HttpHeaders.VARY, VARY_VALUE);
    }
}
