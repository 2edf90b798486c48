package io.ferry.rates.alto.rest;

import io.ferry.rates.alto.AltoException;
import io.ferry.rates.alto.AltoMaps;
import io.ferry.rates.alto.api.AltoMediaTypes;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

/**
 * Refuses a filtered-cost-map request whose declared length is above {@code ferry.rates.alto.max-request-bytes}
 * before its body is read: the service's general limit (32 MB, for record ingest) is far above what a PID filter
 * needs. A chunked body is read up to the general limit, then refused by {@link AltoMaps#filteredCostMap}.
 */
@ApplicationScoped
public class AltoBodyLimit {

    final AltoMaps maps;

    @Inject
    public AltoBodyLimit(AltoMaps maps) {
        this.maps = maps;
    }

    void install(@Observes Router router) {
        // Before the general body limit (io.ferry.problem.BodyLimitFilter, at MIN_VALUE + 10).
        router.post("/alto/costmap/filtered").order(Integer.MIN_VALUE + 5).handler(this::refuseOversized);
    }

    void refuseOversized(RoutingContext rc) {
        String declared = rc.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        long length;
        try {
            length = declared == null ? -1 : Long.parseLong(declared.trim());
        } catch (NumberFormatException e) {
            length = -1;
        }
        if (length > maps.maxRequestBytes()) {
            AltoException e = AltoException.tooLarge(length, maps.maxRequestBytes());
            rc.response().setStatusCode(e.status()).putHeader(HttpHeaders.CONTENT_TYPE, AltoMediaTypes.ERROR)
                    .putHeader(HttpHeaders.CONNECTION, "close").end(Json.encode(e.body()));
            return;
        }
        rc.next();
    }
}
