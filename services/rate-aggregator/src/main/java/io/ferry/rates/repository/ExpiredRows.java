package io.ferry.rates.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;

/** Deletes raw records and 5-minute rollups older than a given time. */
@ApplicationScoped
public class ExpiredRows {

    /** Key by key through the primary key (key_id, bin_seconds, bin_start): rollup rows have no index on time alone. */
    public static final String EXPIRED_FINE_ROLLUPS = "DELETE FROM rollup_bin WHERE key_id IN (SELECT id FROM rollup_key) "
            + "AND bin_seconds = 300 AND bin_start < $1";

    final Pool pool;

    @Inject
    public ExpiredRows(Pool pool) {
        this.pool = pool;
    }

    /** Answers how many raw records completed before {@code before} were deleted. */
    public Uni<Integer> deleteRawRecords(OffsetDateTime before) {
        return pool.preparedQuery("DELETE FROM transfer_record WHERE completed_at < $1").execute(Tuple.of(before)).map(rows -> rows.rowCount());
    }

    /** Answers how many 5-minute rollup bins starting before {@code before} were deleted. */
    public Uni<Integer> deleteFineRollups(OffsetDateTime before) {
        return pool.preparedQuery(EXPIRED_FINE_ROLLUPS).execute(Tuple.of(before)).map(rows -> rows.rowCount());
    }
}
