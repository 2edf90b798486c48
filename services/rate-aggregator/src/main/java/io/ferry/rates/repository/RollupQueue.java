package io.ferry.rates.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The queue of record facts not yet in the rollups: folding a batch of it, and its length. */
@ApplicationScoped
public class RollupQueue {

    /** {@code rows}: queued rows taken; {@code increments}: the increments they held, now in the rollups. */
    public record Fold(long rows, long increments) {
    }

    final Pool pool;

    @Inject
    public RollupQueue(Pool pool) {
        this.pool = pool;
    }

    /** Folds queued rows holding up to {@code increments} increments into the rollups, in one transaction. */
    public Uni<Fold> fold(int increments) {
        // A batch groups up to 9 × increments; with the default 4 MB of work_mem PostgreSQL sorted them on disk.
        return pool.withTransaction(c -> c.query("SET LOCAL work_mem = '64MB'").execute()
                .flatMap(v -> c.preparedQuery(RollupSql.DRAIN).execute(Tuple.of(increments)))).map(rows -> {
            Row taken = rows.iterator().next();
            return new Fold(taken.getLong(0), taken.getLong(1));
        });
    }

    /** How many increments are queued. */
    public Uni<Long> pending() {
        return pool.query(RollupSql.PENDING).execute().map(rows -> rows.iterator().next().getLong(0));
    }
}
