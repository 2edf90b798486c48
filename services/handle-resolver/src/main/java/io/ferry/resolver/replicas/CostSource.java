package io.ferry.resolver.replicas;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.resolver.client.AggregatorClient;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * rate-aggregator's cost matrix behind a 2 s timeout and a circuit breaker: after repeated failures the call is
 * not even tried for 30 s, so a dead aggregator costs resolution nothing.
 */
@ApplicationScoped
public class CostSource {

    final AggregatorClient aggregator;

    @Inject
    public CostSource(@RestClient AggregatorClient aggregator) {
        this.aggregator = aggregator;
    }

    @Timeout(2000)
    @CircuitBreaker(requestVolumeThreshold = 4, failureRatio = 0.5, delay = 30_000, successThreshold = 1)
    public Uni<JsonNode> cost(String from, String to, long filesize) {
        return aggregator.cost(from, to, Long.toString(filesize));
    }
}
