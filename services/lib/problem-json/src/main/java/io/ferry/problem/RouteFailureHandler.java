package io.ferry.problem;

import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.ForbiddenException;
import io.quarkus.security.UnauthorizedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Answers failures that happen outside JAX-RS (in Vert.x routes, the body handler, or while a request is decoded)
 * with a problem document, where Vert.x and Quarkus would otherwise write a text/plain or HTML error page.
 */
@ApplicationScoped
public class RouteFailureHandler {

    private static final Logger LOG = Logger.getLogger(RouteFailureHandler.class);

    void install(@Observes Router router) {
        // First among the failure handlers, so that Quarkus's own error page is never reached.
        router.route().order(Integer.MIN_VALUE).failureHandler(this::handle);
    }

    void handle(RoutingContext rc) {
        HttpServerResponse response = rc.response();
        if (response.headWritten() || response.ended() || response.closed()) {
            // Part of the answer is on the wire already: there is nothing to correct, only to stop.
            LOG.debugf(rc.failure(), "failure after the response started: %s", rc.request().path());
            if (!response.ended() && !response.closed()) {
                response.reset();
            }
            return;
        }
        Problem problem = problemFor(rc.failure(), rc.statusCode());
        if (problem.status() == 401) {
            response.putHeader("WWW-Authenticate", "Bearer");
        }
        if (problem.status() == 503) {
            response.putHeader(HttpHeaders.RETRY_AFTER, Integer.toString(DatabaseFailures.RETRY_AFTER_SECONDS));
        }
        response.setStatusCode(problem.status())
                .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
                .end(Json.encode(problem.atInstance(rc.request().path())));
    }

    static Problem problemFor(Throwable failure, int statusCode) {
        if (failure instanceof ProblemException p) {
            return p.problem();
        }
        if (failure instanceof AuthenticationFailedException a && Problem.carriedBy(a) != null) {
            return Problem.carriedBy(a);
        }
        if (failure instanceof UnauthorizedException || failure instanceof AuthenticationFailedException) {
            return Problem.of(401, "UNAUTHENTICATED", "a valid bearer token is required");
        }
        if (failure instanceof ForbiddenException) {
            return Problem.of(403, "FORBIDDEN", "the token lacks the scope, VO or site this request needs");
        }
        Problem database = failure == null ? null : DatabaseFailures.problemFor(failure);
        if (database != null) {
            if (database.status() >= 500) {
                LOG.warnf("database unavailable: %s", ProblemMappers.rootMessage(failure));
            }
            return database;
        }
        int status = failure instanceof HttpException http ? http.getStatusCode() : statusCode;
        if (status >= 400 && status < 500) {
            return Problem.of(status, Problem.codeFor(status), Problem.titleFor(status).toLowerCase());
        }
        LOG.error("unexpected failure", failure);
        return Problem.of(500, "INTERNAL_ERROR", "the service failed to handle the request");
    }
}
