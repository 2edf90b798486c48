package io.ferry.rates.service;

import io.ferry.rates.api.Drained;
import io.ferry.rates.repository.RollupQueue;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Folds queued record facts into the 5 min / 1 h / 1 d rollups, every second, in batches. Rollups therefore trail
 * ingest by about a second; {@code POST /rollups/flush} folds everything queued right away.
 */
@ApplicationScoped
public class RollupWorker {

    private static final Logger LOG = Logger.getLogger(RollupWorker.class);
    /** Increments a fold takes, about (whole queued rows; a backfill batch of 5,000 records queues about 5,000). */
    static final int BATCH = 50_000;

    final RollupQueue queue;

    private final AtomicLong pending = new AtomicLong();

    @Inject
    public RollupWorker(RollupQueue queue, MeterRegistry registry) {
        this.queue = queue;
        registry.gauge("ferry.rollup.pending", pending);
    }

    @Scheduled(every = "${ferry.rates.rollup-interval:1s}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> tick() {
        return drainAll().replaceWithVoid().onFailure().recoverWithUni(e -> {
            LOG.warnf("rollup fold failed, the facts stay queued: %s", e.toString());
            return Uni.createFrom().voidItem();
        });
    }

    /** Folds batches until the queue is empty; answers how many facts were folded. */
    public Uni<Drained> drainAll() {
        return drainFrom(0);
    }

    private Uni<Drained> drainFrom(long soFar) {
        return queue.fold(BATCH).flatMap(fold -> {
            if (fold.rows() > 0) {
                return drainFrom(soFar + fold.increments());
            }
            return queue.pending().flatMap(left -> {
                pending.set(left);
                if (left > 0) {
                    // Another fold (the timer, or another replica) holds those rows: wait for it to commit.
                    return Uni.createFrom().voidItem().onItem().delayIt().by(java.time.Duration.ofMillis(50))
                            .flatMap(v -> drainFrom(soFar));
                }
                return Uni.createFrom().item(new Drained(soFar, 0));
            });
        });
    }
}
