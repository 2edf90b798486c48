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
}
