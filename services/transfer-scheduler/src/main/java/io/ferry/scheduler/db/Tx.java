package io.ferry.scheduler.db;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Transaction;

import java.util.function.Function;

/**
 * A transaction driven step by step from an engine thread (never an event-loop thread): the engine's scheduling
 * pass reads, decides and claims in one transaction, which reads best as plain sequential code.
 */
public final class Tx {

    private Tx() {
    }

    public static <T> T run(Pool pool, Function<SqlConnection, T> work) {
        return onConnection(pool, c -> {
            Transaction tx = c.begin().await().atMost(Db.WAIT);
            try {
                T result = work.apply(c);
                tx.commit().await().atMost(Db.WAIT);
                return result;
            } catch (RuntimeException e) {
                tx.rollback().await().atMost(Db.WAIT);
                throw e;
            }
        });
    }

    /**
     * As {@link #run}, holding the advisory lock {@code key} for the whole transaction (waiting for it). BEGIN and the
     * lock go in one simple-protocol message, one round trip: the scheduling pass takes this lock many times a second.
     * The lock must be its own statement before the work's: a statement's snapshot is taken when it starts, so a
     * snapshot read in the statement that waited for the lock could miss what its previous holder committed.
     * The client does not know of a transaction begun this way, so this method ends it on every way out; and the
     * server gives up waiting for a lock before the client does ({@link #LOCK_TIMEOUT}), and ends the session of a
     * transaction left idle ({@link #IDLE_TIMEOUT}) should a ROLLBACK not get through: a pooled connection never
     * keeps the lock or an open transaction.
     */
    public static <T> T runLocked(Pool pool, long key, Function<SqlConnection, T> work) {
        return onConnection(pool, c -> {
            try {
                c.query("BEGIN; SET LOCAL lock_timeout = '" + LOCK_TIMEOUT + "'; SET LOCAL idle_in_transaction_session_timeout = '"
                        + IDLE_TIMEOUT + "'; SELECT pg_advisory_xact_lock(" + key + ")").execute().await().atMost(Db.WAIT);
                T result = work.apply(c);
                c.query("COMMIT").execute().await().atMost(Db.WAIT);
                return result;
            } catch (Throwable e) {
                try {
                    c.query("ROLLBACK").execute().await().atMost(Db.WAIT);
                } catch (RuntimeException rollback) {
                    e.addSuppressed(rollback);
                }
                throw e;
            }
        });
    }

    /** {@code work} on a connection of the pool, given back to it afterwards. */
    private static <T> T onConnection(Pool pool, Function<SqlConnection, T> work) {
        SqlConnection c = pool.getConnection().await().atMost(Db.WAIT);
        try {
            return work.apply(c);
        } finally {
            c.close().await().atMost(Db.WAIT);
        }
    }

    /** Under {@link #Db.WAIT}: the server's error, not the client's timeout, ends a wait for a lock. */
    static final String LOCK_TIMEOUT = "20s";

    /** Over {@link #Db.WAIT}: a transaction idle this long was left behind by a client that gave up on it. */
    static final String IDLE_TIMEOUT = "60s";
}
