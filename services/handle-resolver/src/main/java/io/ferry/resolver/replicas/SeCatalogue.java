package io.ferry.resolver.replicas;

import io.ferry.resolver.client.SchedulerClient;
import io.ferry.resolver.client.StorageEndpoint;
import io.ferry.resolver.config.ResolverConfig;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * transfer-scheduler's SE catalogue as the resolver sees it: fetched when older than the refresh interval,
 * and the last good copy kept when the scheduler cannot be reached, so resolution keeps working.
 */
@ApplicationScoped
public class SeCatalogue {

    private static final Logger LOG = Logger.getLogger(SeCatalogue.class);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(3);

    /** What the resolver knows of the SEs and how fresh it is ({@code live}, {@code cached}, {@code stale}, {@code unavailable}). */
    public record Snapshot(List<StorageEndpoint> endpoints, Instant fetchedAt, String basis, String error) {
        public Optional<StorageEndpoint> find(String name) {
            return endpoints.stream().filter(se -> se.name().equals(name)).findFirst();
        }
    }

    @Inject
    @RestClient
    SchedulerClient scheduler;

    @Inject
    ResolverConfig config;

    private volatile Snapshot last;

    @WithSpan
    public Uni<Snapshot> current() {
        Snapshot copy = last;
        if (copy != null && copy.fetchedAt().plus(config.seCatalogueRefresh()).isAfter(Instant.now())) {
            return Uni.createFrom().item(new Snapshot(copy.endpoints(), copy.fetchedAt(), "cached", null));
        }
        return refresh();
    }

    @WithSpan
    public Uni<Snapshot> refresh() {
        return scheduler.storageEndpoints()
                .ifNoItem().after(CALL_TIMEOUT).fail()
                .map(list -> {
                    Snapshot fresh = new Snapshot(List.copyOf(list), Instant.now(), "live", null);
                    last = fresh;
                    return fresh;
                })
                .onFailure().recoverWithItem(e -> {
                    LOG.warnf("SE catalogue not refreshed from transfer-scheduler: %s", e.toString());
                    Snapshot copy = last;
                    return copy == null
                            ? new Snapshot(List.of(), Instant.EPOCH, "unavailable", e.getMessage())
                            : new Snapshot(copy.endpoints(), copy.fetchedAt(), "stale", e.getMessage());
                });
    }
}
