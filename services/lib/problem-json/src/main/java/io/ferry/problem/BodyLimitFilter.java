package io.ferry.problem;

import io.vertx.ext.web.Router;
import jakarta.enterprise.event.Observes;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.quarkus.runtime.configuration.MemorySize;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Refuses bodies above {@code quarkus.http.limits.max-body-size} with a problem document. A service whose routes
 * differ (FTS3's {@code POST /jobs} carries up to 10,000 files) sets {@code ferry.http.body-limit} for every request
 * and names in {@code ferry.http.large-body-routes} ({@code "POST /jobs"}: method and exact path) the ones that may
 * go up to {@code quarkus.http.limits.max-body-size}, the ceiling Vert.x itself enforces. Vert.x and RESTEasy
 * would otherwise answer such requests with a bare 413: at once when the length is declared, and while reading a
 * chunked body (which has none) only when its bytes pass the limit. A chunked body is therefore read here, up to
 * the limit, by Vert.x's body handler, whose refusal {@link RouteFailureHandler} renders; RESTEasy uses what it read.
 */
@ApplicationScoped
public class BodyLimitFilter {

    @Inject
    @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K")
    MemorySize maxBodySize;

    @Inject
    @ConfigProperty(name = "ferry.http.body-limit")
    java.util.Optional<MemorySize> bodyLimit;

    @Inject
    @ConfigProperty(name = "ferry.http.large-body-routes")
    java.util.Optional<java.util.List<String>> largeBodyRoutes;

    private BodyHandler chunkedBodies;
    private BodyHandler chunkedLargeBodies;
    private java.util.Set<String> largeRoutes;

    void install(@Observes Router router) {
        chunkedBodies = BodyHandler.create(false).setBodyLimit(limit(false)).setMergeFormAttributes(false);
        chunkedLargeBodies = BodyHandler.create(false).setBodyLimit(maxBodySize.asLongValue()).setMergeFormAttributes(false);
        largeRoutes = largeBodyRoutes.orElse(java.util.List.of()).stream().map(r -> r.trim().replaceAll("\\s+", " "))
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
        // Runs before the body handler, which would otherwise answer a bare 413 or buffer the body first.
        router.route().order(Integer.MIN_VALUE + 10).handler(this::refuseOversizedBodies);
    }

    void refuseOversizedBodies(RoutingContext rc) {
        // From the request URI, leading slashes folded: FTS3's client asks for //jobs, which the service takes as
        // /jobs, and in which Vert.x's own path() would see an authority.
        String uri = rc.request().uri() == null ? "" : rc.request().uri();
        String path = uri.replaceFirst("[?#].*$", "").replaceFirst("^/{2,}", "/");
        boolean large = largeRoutes.contains(rc.request().method().name() + " " + path);
        String declared = rc.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (declared == null && rc.request().headers().contains(HttpHeaders.TRANSFER_ENCODING, HttpHeaders.CHUNKED, true)) {
            (large ? chunkedLargeBodies : chunkedBodies).handle(rc);
            return;
        }
        long limit = limit(large);
        if (declared != null && exceeds(declared, limit)) {
            Problem p = Problem.of(413, "BODY_TOO_LARGE",
                    "request body of " + declared + " bytes exceeds the limit of " + limit + " bytes")
                    .atInstance(rc.request().path());
            rc.response().setStatusCode(413)
                    .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                    .putHeader(HttpHeaders.CONNECTION, "close")
                    .end(io.vertx.core.json.Json.encode(p));
            return;
        }
        rc.next();
    }

    /** The limit of a route: the ceiling for the large-body ones, else {@code ferry.http.body-limit} (at most the ceiling). */
    private long limit(boolean large) {
        long ceiling = maxBodySize.asLongValue();
        return large ? ceiling : Math.min(ceiling, bodyLimit.map(MemorySize::asLongValue).orElse(ceiling));
    }

    private static boolean exceeds(String declared, long limit) {
        try {
            return Long.parseLong(declared.trim()) > limit;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
