package io.ferry.scheduler.db;

import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.ferry.scheduler.db.EngineConnections;
import io.ferry.scheduler.db.Tx;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The engine's statements on PostgreSQL: planned once per connection, and a locked transaction leaves no lock behind. */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class EngineStatementsTest extends EngineFixture {

    @Test
    void aStatementAsLongAsTheEnginesCtesIsPlannedOncePerConnection() {
        // Vert.x keeps only statements under 2,048 characters prepared; StatementCachingPool lifts that, or PostgreSQL
        // parses and plans the engine's claim and record statements on every execution
        String sql = "SELECT $1::int + 1 /* " + "x".repeat(9_000) + " */";
        long prepared = pool.withConnection(c -> c.preparedQuery(sql).execute(Tuple.of(1))
                .chain(x -> c.preparedQuery(sql).execute(Tuple.of(2)))
                .chain(x -> c.preparedQuery("SELECT count(*) FROM pg_prepared_statements WHERE statement = $1").execute(Tuple.of(sql)))
                .map(rows -> rows.iterator().next().getLong(0))).await().atMost(Duration.ofSeconds(10));
        assertEquals(1, prepared, "the long statement is kept prepared on its connection");
    }

    @Inject
    @EngineConnections
    Pool enginePool;

    @Test
    void theEnginesStatementsArePlannedOnceAndTheOthersKeepPostgresChoice() {
        // on the engine's connections a statement is planned once; elsewhere as PostgreSQL chooses, which for a
        // statement like this one on a full table (a custom plan knows the array's length) is anew on every execution
        String sql = "SELECT count(*) FROM transfer_file f, unnest($1::bigint[]) AS v(id) WHERE f.file_id = v.id AND f.state = $2";
        String plans = "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1";
        Function<Pool, String> eightRuns = p -> p.withConnection(c -> {
            Uni<?> runs = Uni.createFrom().voidItem();
            for (int i = 0; i < 8; i++) {
                long n = i;
                runs = runs.chain(x -> c.preparedQuery(sql).execute(Tuple.of(new Long[]{n, n + 1}, "FINISHED")));
            }
            return runs.chain(x -> c.preparedQuery(plans).execute(Tuple.of(sql)))
                    .map(rows -> rows.iterator().next().getLong(0) + " generic, " + rows.iterator().next().getLong(1) + " custom");
        }).await().atMost(Duration.ofSeconds(10));
        assertEquals("8 generic, 0 custom", eightRuns.apply(enginePool), "the engine's connections plan a statement once");
        // PostgreSQL's choice: custom plans for the first five executions at least, then whichever looks cheaper
        assertTrue(eightRuns.apply(pool).matches("[0-3] generic, [5-8] custom"), "the default pool keeps PostgreSQL's choice");
    }

    @Test
    void aLockedTransactionEndsOnEveryWayOutLeavingNoLockOnThePooledConnection() {
        long key = 0x7E57L; // not the scheduling pass's: the engine keeps running beside this test
        String held = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = " + key;
        String aborted = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction (aborted)'";
        Function<String, Long> count = sql -> pool.query(sql).execute().await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0);
        // a failing statement of the work, and a Java error in it (not a RuntimeException), both after the lock was taken
        assertThrows(RuntimeException.class, () -> Tx.runLocked(enginePool, key, c -> c.query("SELECT 1 / 0").execute().await().atMost(Duration.ofSeconds(10))));
        AssertionError gaveUp = assertThrows(AssertionError.class, () -> Tx.runLocked(enginePool, key, c -> {
            assertEquals(1L, count.apply(held), "the work runs holding the lock");
            throw new AssertionError("the work gave up");
        }));
        assertEquals("the work gave up", gaveUp.getMessage());
        assertEquals(0L, count.apply(held), "the lock went with the transaction");
        assertEquals(0L, count.apply(aborted), "no connection was given back inside an aborted transaction");
        assertEquals(List.of(1), Tx.runLocked(enginePool, key, c -> List.of(c.query("SELECT 1").execute().await().atMost(Duration.ofSeconds(10)).size())),
                "the pool's connections take the lock again");
    }
}
