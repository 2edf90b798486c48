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
 * Refuses bodies above {@code quarkus.http.limits.max-body-size} with a problem document. Vert.x and RESTEasy
 * would otherwise answer such requests with a bare 413: at once when the length is declared, and while reading a
 * chunked body (which has none) only when its bytes pass the limit. A chunked body is therefore read here, up to
 * the limit, by Vert.x's body handler, whose refusal {@link RouteFailureHandler} renders; RESTEasy uses what it read.
 */
@ApplicationScoped
public class BodyLimitFilter {

    @Inject
    @ConfigProperty(name = "quarkus.http.limits.max-body-size", defaultValue = "10240K")
    MemorySize maxBodySize;

    private BodyHandler chunkedBodies;

    void install(@Observes Router router) {
        chunkedBodies = BodyHandler.create(false).setBodyLimit(maxBodySize.asLongValue()).setMergeFormAttributes(false);
        // Runs before the body handler, which would otherwise answer a bare 413 or buffer the body first.
        router.route().order(Integer.MIN_VALUE + 10).handler(this::refuseOversizedBodies);
    }

    void refuseOversizedBodies(RoutingContext rc) {
        String declared = rc.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (declared == null && rc.request().headers().contains(HttpHeaders.TRANSFER_ENCODING, HttpHeaders.CHUNKED, true)) {
            chunkedBodies.handle(rc);
            return;
        }
        if (declared != null && exceeds(declared)) {
            Problem p = Problem.of(413, "BODY_TOO_LARGE",
                    "request body of " + declared + " bytes exceeds the limit of " + maxBodySize.asLongValue() + " bytes")
                    .atInstance(rc.request().path());
            rc.response().setStatusCode(413)
                    .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                    .putHeader(HttpHeaders.CONNECTION, "close")
                    .end(io.vertx.core.json.Json.encode(p));
            return;
        }
        rc.next();
    }

    private boolean exceeds(String declared) {
        try {
            return Long.parseLong(declared.trim()) > maxBodySize.asLongValue();
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
