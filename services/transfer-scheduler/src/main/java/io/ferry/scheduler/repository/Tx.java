package io.ferry.scheduler.repository;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;

import java.time.Duration;
import java.util.function.Function;

/**
 * A transaction driven step by step from an engine thread (never an event-loop thread): the engine's scheduling
 * pass reads, decides and claims in one transaction, which reads best as plain sequential code.
 */
public final class Tx {

    static final Duration WAIT = Duration.ofSeconds(30);

    private Tx() {
    }

    public static <T> T run(Pool pool, Function<SqlConnection, T> work) {
        SqlConnection c = pool.getConnection().await().atMost(WAIT);
        try {
            Transaction tx = c.begin().await().atMost(WAIT);
            try {
                T result = work.apply(c);
                tx.commit().await().atMost(WAIT);
                return result;
            } catch (RuntimeException e) {
                tx.rollback().await().atMost(WAIT);
                throw e;
            }
        } finally {
            c.close().await().atMost(WAIT);
        }
    }

    /**
     * As {@link #run}, holding the advisory lock {@code key} for the whole transaction (waiting for it). BEGIN and the
     * lock go in one simple-protocol message, one round trip: the scheduling pass takes this lock many times a second.
     * The lock must be its own statement before the work's: a statement's snapshot is taken when it starts, so a
     * snapshot read in the statement that waited for the lock could miss what its previous holder committed.
     */
    public static <T> T runLocked(Pool pool, long key, Function<SqlConnection, T> work) {
        SqlConnection c = pool.getConnection().await().atMost(WAIT);
        try {
            c.query("BEGIN; SELECT pg_advisory_xact_lock(" + key + ")").execute().await().atMost(WAIT);
            T result;
            try {
                result = work.apply(c);
            } catch (RuntimeException e) {
                c.query("ROLLBACK").execute().await().atMost(WAIT);
                throw e;
            }
            c.query("COMMIT").execute().await().atMost(WAIT);
            return result;
        } finally {
            c.close().await().atMost(WAIT);
        }
    }
}
