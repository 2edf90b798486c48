package io.ferry.rates.service;

import io.ferry.rates.config.RatesConfig;
import io.ferry.rates.repository.ExpiredRows;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Deletes raw records and 5-minute rollups past their retention; hourly and daily rollups stay. */
@ApplicationScoped
public class RetentionService {

    private static final Logger LOG = Logger.getLogger(RetentionService.class);

    final ExpiredRows expired;

    final RatesConfig config;

    @Inject
    public RetentionService(ExpiredRows expired, RatesConfig config) {
        this.expired = expired;
        this.config = config;
    }

    @Scheduled(every = "${ferry.rates.retention-interval:1h}", delayed = "1m", concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    Uni<Void> clean() {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        return expired.deleteRawRecords(now.minus(config.rawRetention()))
                .flatMap(raw -> expired.deleteFineRollups(now.minus(config.fineRollupRetention()))
                        .invoke(fine -> {
                            if (raw + fine > 0) {
                                LOG.infof("retention: deleted %d raw records and %d 5-minute rollups", raw, fine);
                            }
                        }))
                .replaceWithVoid()
                .onFailure().recoverWithUni(e -> {
                    LOG.warnf("retention clean-up failed, will retry: %s", e.toString());
                    return Uni.createFrom().voidItem();
                });
    }
}
