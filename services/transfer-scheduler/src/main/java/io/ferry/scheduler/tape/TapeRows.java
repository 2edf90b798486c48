package io.ferry.scheduler.tape;

import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.submission.TapeParams;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

/** What staging or archiving a file needs beyond its claim: its job's tape parameters and when its stage request went out. */
public final class TapeRows {

    private TapeRows() {
    }

    /** {@code stagingStart}: null before the first stage request. */
    public record Staging(TapeParams params, OffsetDateTime stagingStart) {
    }

    /** A file copied to tape storage whose archiveinfo is due; {@code copiedAt}: when its copy ended (archive_timeout counts from it). */
    public record Archiving(ClaimedFile file, TapeParams params, OffsetDateTime copiedAt) {
    }

    /**
     * Up to {@code n} ARCHIVING files whose poll is due, oldest first, their next poll moved {@code poll} ahead in the
     * same statement: replicas polling at once never ask about the same file.
     */
    public static List<Archiving> dueArchiving(Pool pool, int n, Duration poll, Duration wait) {
        List<Archiving> due = new ArrayList<>();
        pool.preparedQuery("UPDATE transfer_file f SET next_attempt_at = now() + make_interval(secs => $2) FROM job j WHERE j.job_id = f.job_id "
                        + "AND f.file_id IN (SELECT file_id FROM transfer_file WHERE state = 'ARCHIVING' AND next_attempt_at <= now() "
                        + "ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING " + ClaimedFile.COLUMNS + ", j.params, f.finish_time")
                .execute(Tuple.of(n, poll.toMillis() / 1000.0)).await().atMost(wait)
                .forEach(r -> due.add(new Archiving(ClaimedFile.of(r), TapeParams.ofStored(r.getString(28)), r.getOffsetDateTime(29))));
        return due;
    }

    public static Staging of(Pool pool, long fileId, Duration wait) {
        Row r = pool.preparedQuery("SELECT j.params, f.staging_start FROM transfer_file f JOIN job j ON j.job_id = f.job_id WHERE f.file_id = $1")
                .execute(Tuple.of(fileId)).await().atMost(wait).iterator().next();
        return new Staging(TapeParams.ofStored(r.getString(0)), r.getOffsetDateTime(1));
    }
}
