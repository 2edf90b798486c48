package io.ferry.scheduler.delivery;

import io.ferry.scheduler.db.Db;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.mutiny.sqlclient.Pool;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The backlog gauge of an outbox table: how many rows wait for their receiver, which is how operators watch its
 * outage. After each pass the delivery loop reports {@link #emptied()} (its last batch took every waiting row: 0, with
 * no query) or {@link #countWhenDue()}. While rows wait they are counted at most every {@link #COUNT_EVERY} (or once
 * per delivery pause, if shorter), exactly up to {@link #EXACT_COUNT_UP_TO}; above that the gauge shows PostgreSQL's
 * estimate of the table's rows, never less than the bound. During an outage the table grows with every transfer:
 * counting all of its rows on every pass would be the loop's main cost just when the database is busiest.
 */
final class OutboxBacklog {

    static final int EXACT_COUNT_UP_TO = 100_000;
    static final Duration COUNT_EVERY = Duration.ofSeconds(10);

    private final Pool pool;
    private final int exactUpTo;
    private final String exactCount;
    private final String estimate;
    private final long countEveryNanos;
    private final AtomicLong pending = new AtomicLong();
    private long nextCountNanos = System.nanoTime();

    /** The backlog of {@code table}, whose delivery pauses at most {@code maxBackoff} while its receiver is away. */
    OutboxBacklog(Pool pool, String table, Duration maxBackoff) {
        this(pool, table, EXACT_COUNT_UP_TO, COUNT_EVERY.compareTo(maxBackoff) <= 0 ? COUNT_EVERY : maxBackoff);
    }

    OutboxBacklog(Pool pool, String table, int exactUpTo, Duration countEvery) {
        this.pool = pool;
        this.exactUpTo = exactUpTo;
        this.exactCount = "SELECT count(*) FROM (SELECT 1 FROM " + table + " LIMIT " + (exactUpTo + 1) + ") r";
        this.estimate = "SELECT greatest(reltuples::bigint, " + exactUpTo + ") FROM pg_class WHERE oid = '" + table + "'::regclass";
        this.countEveryNanos = countEvery.toNanos();
    }

    /** Publishes the backlog as the gauge {@code name}. */
    void register(MeterRegistry metrics, String name, String description) {
        Gauge.builder(name, pending, AtomicLong::get).description(description).register(metrics);
    }

    /** The last batch took every waiting row: nothing waits but what committed since, and the next count is due at once. */
    void emptied() {
        pending.set(0);
        nextCountNanos = System.nanoTime();
    }

    /** Rows wait (delivery failed or pauses): counts them unless the last count is recent. */
    void countWhenDue() {
        if (System.nanoTime() - nextCountNanos < 0) {
            return;
        }
        nextCountNanos = System.nanoTime() + countEveryNanos;
        long rows = single(exactCount);
        pending.set(rows > exactUpTo ? single(estimate) : rows);
    }

    private long single(String sql) {
        return pool.query(sql).execute().await().atMost(Db.WAIT).iterator().next().getLong(0);
    }
}
