package io.ferry.scheduler.engine;

import io.ferry.engineloop.EngineLoop;
import io.ferry.movers.MoverException;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.storage.bans.BanService;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.FileQueue;
import io.ferry.scheduler.transitions.Guard;
import io.ferry.scheduler.transitions.StateStore;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * Makes sure nothing waits forever: ACTIVE files whose replica stopped renewing the lease go back to the queue
 * (LEASE_EXPIRED, always retried, the destination then ours to replace); prepared files older than the pin
 * lifetime are prepared again; files still queued after their job's max_time_in_queue fail with QUEUE_EXPIRED; files of
 * a banned SE are cancelled when their ban says so ({@code BanService#sweep}); what is unfinished of a job whose deadline
 * passed is cancelled.
 */
@ApplicationScoped
public class QueueExpiry extends EngineLoop {

    private static final Logger LOG = Logger.getLogger(QueueExpiry.class);

    private final SchedulerConfig config;
    private final Pool pool;
    private final FileQueue queue;
    private final StateStore outcomes;
    private final EngineWakeups wakeups;
    private final BanService bans;

    @Inject
    QueueExpiry(SchedulerConfig config, Pool pool, FileQueue queue, StateStore outcomes, EngineWakeups wakeups, BanService bans) {
        this.config = config;
        this.pool = pool;
        this.queue = queue;
        this.outcomes = outcomes;
        this.wakeups = wakeups;
        this.bans = bans;
    }

    @Override
    public String name() {
        return "expiry";
    }

    @Override
    protected Duration period() {
        return Duration.ofSeconds(2);
    }

    @Override
    protected void pass() {
        bans.sweep();
        for (Long id : queue.expiredActive(200).await().atMost(Db.WAIT)) {
            ClaimedFile f = pool.withConnection(c -> queue.read(c, id)).await().atMost(Db.WAIT);
            if (f != null) {
                OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
                outcomes.failed(f, Guard.LEASE_LAPSED, Math.max(1, f.attempts()), new MoverException(MoverException.Code.LEASE_EXPIRED,
                                "transfer", "the scheduler replica moving it stopped renewing its lease; queued again"), 0, null,
                        new AttemptTimes(f.prepareStartedAt(), f.preparedAt(), null, null, null, null).withEnd(now));
            }
        }
        int unpinned = queue.unpinStale(config.engine().pinLifetime()).await().atMost(Db.WAIT);
        if (unpinned > 0) {
            LOG.infof("%d prepared file(s) waited longer than the pin lifetime %s: preparing them again", unpinned, config.engine().pinLifetime());
            wakeups.preparedPoolShrank();
        }
        cancelPastDeadlines();
        for (Long id : queue.queueExpired(500).await().atMost(Db.WAIT)) {
            ClaimedFile f = pool.withConnection(c -> queue.read(c, id)).await().atMost(Db.WAIT);
            if (f != null) {
                OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
                outcomes.failed(f, Guard.QUEUED, f.attempts() + 1, new MoverException(MoverException.Code.QUEUE_EXPIRED, "queue",
                        "still queued when the job's max_time_in_queue ran out"), 0, null, new AttemptTimes(null, null, null, null, null, null).withEnd(now));
            }
        }
    }

    /**
     * Jobs whose deadline passed: their unfinished files are cancelled as a user's cancel would (a running copy is
     * stopped), the reason naming the deadline.
     */
    private void cancelPastDeadlines() {
        RowSet<Row> due = pool.preparedQuery("SELECT job_id, deadline FROM job WHERE deadline IS NOT NULL AND deadline <= now() AND state IN ("
                + JobState.sql(JobState.OPEN) + ") ORDER BY deadline LIMIT 100").execute().await().atMost(Db.WAIT);
        for (Row r : due) {
            String why = "the job's deadline " + r.getOffsetDateTime("deadline").toInstant() + " passed before the file finished";
            outcomes.cancel(r.getUUID("job_id"), null, why, unknown -> null).await().atMost(Db.WAIT);
        }
    }
}
