package io.ferry.scheduler.tape;

import io.ferry.scheduler.submission.TapeParams;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.Duration;
import java.time.OffsetDateTime;

/** What staging or archiving a file needs beyond its claim: its job's tape parameters and when its stage request went out. */
public final class TapeRows {

    private TapeRows() {
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
