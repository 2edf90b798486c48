package io.ferry.scheduler.delivery;

import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An outbox's backlog gauge against PostgreSQL, on a table of its own (the real outboxes' loops would deliver the rows):
 * exact up to its bound, PostgreSQL's estimate above it, counted at most once per interval while rows wait, 0 at once
 * when a pass took them all.
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class OutboxBacklogTest {

    static final String TABLE = "backlog_test_rows";
    static final String GAUGE = "test_pending_rows";

    @Inject
    Pool pool;

    MeterRegistry metrics;

    @BeforeEach
    void tableAndMetrics() {
        metrics = new SimpleMeterRegistry();
        sql("CREATE TABLE " + TABLE + " (n int)");
    }

    @AfterEach
    void dropTable() {
        sql("DROP TABLE " + TABLE);
    }

    @Test
    void exactUpToTheBoundAndAboveItPostgresEstimateNeverLessThanTheBound() {
        OutboxBacklog backlog = new OutboxBacklog(pool, TABLE, 10, Duration.ZERO);
        backlog.register(metrics, GAUGE, "rows waiting");
        assertEquals(0, counted(backlog));
        add(10);
        assertEquals(10, counted(backlog), "exact up to the bound");
        add(15);
        assertEquals(10, counted(backlog), "above the bound before PostgreSQL has analyzed the table: the bound");
        sql("ANALYZE " + TABLE);
        assertEquals(25, counted(backlog), "above the bound: PostgreSQL's estimate, here as exact as its last ANALYZE");
        add(30);
        assertEquals(25, counted(backlog), "the estimate moves only when the table is analyzed again");
        sql("DELETE FROM " + TABLE + " WHERE n > 5");
        assertEquals(5, counted(backlog), "exact again below the bound");
    }

    @Test
    void whileRowsWaitTheyAreCountedOncePerPauseAndAnEmptiedOutboxShowsZeroAtOnce() {
        // a delivery pause shorter than COUNT_EVERY: rows are counted once per pause
        Duration maxBackoff = Duration.ofSeconds(3);
        OutboxBacklog backlog = new OutboxBacklog(pool, TABLE, maxBackoff);
        backlog.register(metrics, GAUGE, "rows waiting");
        add(3);
        long firstCount = System.nanoTime();
        assertEquals(3, counted(backlog), "the first count is due at once");
        add(4);
        assertEquals(3, counted(backlog), "counted again only once the pause has passed");
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).until(() -> counted(backlog) == 7);
        assertTrue(System.nanoTime() - firstCount >= maxBackoff.toNanos(), "not before the pause");

        backlog.emptied();
        assertEquals(0, gauge(), "a pass that took every row shows 0 without counting");
        assertEquals(7, counted(backlog), "and the next pass that finds rows waiting counts them at once");
    }

    private long counted(OutboxBacklog backlog) {
        backlog.countWhenDue();
        return gauge();
    }

    private long gauge() {
        return (long) metrics.get(GAUGE).gauge().value();
    }

    private void add(int rows) {
        sql("INSERT INTO " + TABLE + " SELECT (SELECT coalesce(max(n), 0) FROM " + TABLE + ") + i FROM generate_series(1, " + rows + ") i");
    }

    private void sql(String sql) {
        pool.query(sql).execute().await().atMost(Duration.ofSeconds(10));
    }
}
