package io.ferry.scheduler.fts3;

import io.ferry.problem.Problem;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * The FTS3 client requests {@code endpoint + "/" + path}: its first call is {@code GET //} and every later path
 * starts with {@code //}. Quarkus refuses, before any route runs and with an empty 400, every request URI that
 * {@link URI} cannot parse, and {@code //} parses as an authority with nothing after it. The scheduler therefore
 * starts with that check off ({@link #DISABLE_QUARKUS_URI_CHECK}, set by {@link io.ferry.scheduler.SchedulerMain})
 * and makes it here instead, as the router's first step, once the leading slashes are folded into one.
 */
@ApplicationScoped
public class Fts3ClientPaths {

    /** Quarkus's switch for its own request-URI check; read once, when its HTTP layer is loaded. */
    public static final String DISABLE_QUARKUS_URI_CHECK = "vertx.disableURIValidation";

    void install(@Observes Router router) {
        // First of all routes: nothing may read the path or the absolute URI before it is folded and checked.
        router.route().order(Integer.MIN_VALUE).handler(this::foldAndCheck);
    }

    void foldAndCheck(RoutingContext rc) {
        String uri = rc.request().uri();
        String folded = fold(uri);
        if (!parses(folded)) {
            Problem p = Problem.of(400, "MALFORMED_URI", "the request URI is not a valid URI");
            rc.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE).end(Json.encode(p));
        } else if (folded.equals(uri)) {
            rc.next();
        } else {
            rc.reroute(rc.request().method(), folded);
        }
    }

    /** {@code //jobs/x?y} → {@code /jobs/x?y}; any other URI unchanged. */
    static String fold(String uri) {
        if (uri == null || !uri.startsWith("//")) {
            return uri;
        }
        int first = 0;
        while (first + 1 < uri.length() && uri.charAt(first + 1) == '/') {
            first++;
        }
        return uri.substring(first);
    }

    private static boolean parses(String uri) {
        if (uri == null) {
            return false;
        }
        try {
            new URI(uri);
            return true;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
