package io.ferry.scheduler.repository;

import io.ferry.scheduler.model.TapeParams;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.Duration;
import java.time.OffsetDateTime;

/** What staging a file needs beyond its claim: its job's tape parameters and when its stage request went out. */
public final class StagingRows {

    private StagingRows() {
    }

    /** {@code stagingStart}: null before the first stage request. */
    public record Staging(TapeParams params, OffsetDateTime stagingStart) {
    }

    public static Staging of(Pool pool, long fileId, Duration wait) {
        Row r = pool.preparedQuery("SELECT j.params, f.staging_start FROM transfer_file f JOIN job j ON j.job_id = f.job_id WHERE f.file_id = $1")
                .execute(Tuple.of(fileId)).await().atMost(wait).iterator().next();
        return new Staging(TapeParams.ofStored(r.getString(0)), r.getOffsetDateTime(1));
    }
}
