package io.ferry.resolver.replicas;

import io.ferry.resolver.api.StorageElementSnapshot;
import io.ferry.resolver.client.SchedulerClient;
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

/**
 * transfer-scheduler's SE catalogue as the resolver sees it: fetched when older than the refresh interval,
 * and the last good copy kept when the scheduler cannot be reached, so resolution keeps working.
 */
@ApplicationScoped
public class SeCatalogue {

    private static final Logger LOG = Logger.getLogger(SeCatalogue.class);
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(3);

    final SchedulerClient scheduler;

    final ResolverConfig config;

    @Inject
    public SeCatalogue(@RestClient SchedulerClient scheduler, ResolverConfig config) {
        this.scheduler = scheduler;
        this.config = config;
    }

    private volatile StorageElementSnapshot last;

    @WithSpan
    public Uni<StorageElementSnapshot> current() {
        StorageElementSnapshot copy = last;
        if (copy != null && copy.fetchedAt().plus(config.seCatalogueRefresh()).isAfter(Instant.now())) {
            return Uni.createFrom().item(new StorageElementSnapshot(copy.endpoints(), copy.fetchedAt(), "cached", null));
        }
        return refresh();
    }

    @WithSpan
    public Uni<StorageElementSnapshot> refresh() {
        return scheduler.storageEndpoints()
                .ifNoItem().after(CALL_TIMEOUT).fail()
                .map(list -> {
                    StorageElementSnapshot fresh = new StorageElementSnapshot(List.copyOf(list), Instant.now(), "live", null);
                    last = fresh;
                    return fresh;
                })
                .onFailure().recoverWithItem(e -> {
                    LOG.warnf("SE catalogue not refreshed from transfer-scheduler: %s", e.toString());
                    StorageElementSnapshot copy = last;
                    return copy == null
                            ? new StorageElementSnapshot(List.of(), Instant.EPOCH, "unavailable", e.getMessage())
                            : new StorageElementSnapshot(copy.endpoints(), copy.fetchedAt(), "stale", e.getMessage());
                });
    }
}
