package io.ferry.rates.service;

import io.ferry.rates.config.RatesConfig;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Deletes raw records and 5-minute rollups past their retention; hourly and daily rollups stay. */
@ApplicationScoped
public class RetentionService {

    private static final Logger LOG = Logger.getLogger(RetentionService.class);

    /** Key by key through the primary key (key_id, bin_seconds, bin_start): rollup rows have no index on time alone. */
    public static final String EXPIRED_FINE_ROLLUPS = "DELETE FROM rollup_bin WHERE key_id IN (SELECT id FROM rollup_key) "
            + "AND bin_seconds = 300 AND bin_start < $1";

    @Inject
    Pool pool;

    @Inject
    RatesConfig config;

    @Scheduled(every = "${ferry.rates.retention-interval:1h}", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> clean() {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return pool.preparedQuery("DELETE FROM transfer_record WHERE completed_at < $1").execute(Tuple.of(now.minus(config.rawRetention())))
                .flatMap(raw -> pool.preparedQuery(EXPIRED_FINE_ROLLUPS)
                        .execute(Tuple.of(now.minus(config.fineRollupRetention())))
                        .invoke(fine -> {
                            if (raw.rowCount() + fine.rowCount() > 0) {
                                LOG.infof("retention: deleted %d raw records and %d 5-minute rollups", raw.rowCount(), fine.rowCount());
                            }
                        }))
                .replaceWithVoid()
                .onFailure().recoverWithUni(e -> {
                    LOG.warnf("retention clean-up failed, will retry: %s", e.toString());
                    return Uni.createFrom().voidItem();
                });
    }
}
