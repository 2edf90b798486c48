package io.ferry.scheduler.delivery;

import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/** rate-aggregator's ingest behind a timeout: an aggregator that accepts the batch but never answers must not hold the outbox's pass. */
@ApplicationScoped
public class RecordIngest {

    private final AggregatorClient aggregator;

    @Inject
    RecordIngest(@RestClient AggregatorClient aggregator) {
        this.aggregator = aggregator;
    }

    @Timeout(30_000)
    public Uni<Response> ingest(String records) {
        return aggregator.ingest(records);
    }
}
