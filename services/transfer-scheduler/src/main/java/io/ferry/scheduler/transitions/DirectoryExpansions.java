package io.ferry.scheduler.transitions;

import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.db.Tx;
import io.ferry.scheduler.queue.Job;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.transitions.events.StateChanged;
import io.ferry.scheduler.transitions.events.StateEvents;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A directory job's way from its request to its files: the request stored with the job (which has no files yet),
 * claimed by one replica at a time for a lease, then either expanded into the job's files or ending the job FAILED
 * with the reason, each in one transaction that holds only while the claim is still the caller's. A replica that dies
 * while listing leaves the lease to run out; another lists again.
 */
@ApplicationScoped
public class DirectoryExpansions {

    /** A stored directory request, as the engine lists it. */
    public record Request(UUID jobId, String vo, String sourceUrl, String destUrl, String sourceSe, String destSe, List<String> include,
                          List<String> exclude, int maxFiles, String activity, String fileMetadata, Integer scitag, int attempts) {
    }

    private static final String INSERT = "INSERT INTO directory_request (job_id, source_url, dest_url, source_se, dest_se, include, exclude, "
            + "max_files, activity, file_metadata, scitag) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

    private static final String CLAIM = "UPDATE directory_request SET lease_owner = $1, lease_until = now() + make_interval(secs => $2), "
            + "attempts = attempts + 1 WHERE job_id = (SELECT job_id FROM directory_request WHERE lease_until < now() "
            + "ORDER BY lease_until LIMIT 1 FOR UPDATE SKIP LOCKED) "
            + "RETURNING *, (SELECT vo FROM job WHERE job.job_id = directory_request.job_id) AS vo";

    private final Pool pool;
    private final StateEvents changes;
    private final SchedulerConfig config;

    @Inject
    DirectoryExpansions(Pool pool, StateEvents changes, SchedulerConfig config) {
        this.pool = pool;
        this.changes = changes;
        this.config = config;
    }

    /** Stores a directory job's request, in the submission's transaction. */
    public static Uni<Void> store(SqlClient c, Request r) {
        return c.preparedQuery(INSERT).execute(Tuple.tuple().addUUID(r.jobId()).addString(r.sourceUrl()).addString(r.destUrl())
                .addString(r.sourceSe()).addString(r.destSe()).addArrayOfString(r.include().toArray(String[]::new))
                .addArrayOfString(r.exclude().toArray(String[]::new)).addInteger(r.maxFiles()).addString(r.activity())
                .addString(r.fileMetadata()).addInteger(r.scitag())).replaceWithVoid();
    }

    /** The next request no replica holds, now held by {@code owner} for {@code lease}. */
    public Optional<Request> claim(String owner, Duration lease) {
        RowSet<Row> rows = pool.preparedQuery(CLAIM).execute(Tuple.of(owner, (double) lease.toSeconds())).await().atMost(Db.WAIT);
        if (rows.size() == 0) {
            return Optional.empty();
        }
        Row r = rows.iterator().next();
        return Optional.of(new Request(r.getUUID("job_id"), r.getString("vo"), r.getString("source_url"), r.getString("dest_url"), r.getString("source_se"),
                r.getString("dest_se"), List.of(r.getArrayOfStrings("include")), List.of(r.getArrayOfStrings("exclude")),
                r.getInteger("max_files"), r.getString("activity"), r.getString("file_metadata"), r.getInteger("scitag"),
                r.getInteger("attempts")));
    }

    /**
     * The listed files become the job's, if {@code owner} still holds the request; a job cancelled meanwhile only
     * loses its request. Answers whether files were stored.
     */
    public boolean expand(Request r, String owner, List<JobInserts.NewFile> files) {
        return Tx.run(pool, c -> {
            Optional<Job> job = heldOpenJob(c, r, owner);
            if (job.isEmpty()) {
                return false;
            }
            JobInserts.insertFiles(c, job.get(), files, JobInserts.claimBy(job.get(), config.engine().undatedHorizon())).await().atMost(Db.WAIT);
            return true;
        });
    }

    /** Ends the job FAILED with {@code reason}, if {@code owner} still holds its request. */
    public void fail(Request r, String owner, String reason) {
        boolean failed = Tx.run(pool, c -> {
            if (heldOpenJob(c, r, owner).isEmpty()) {
                return false;
            }
            JobStateWrites.set(c, r.jobId(), JobState.FAILED, reason).await().atMost(Db.WAIT);
            return true;
        });
        if (failed) {
            changes.publish(StateChanged.job(r.jobId(), JobState.FAILED, reason));
        }
    }

    /** Gives the request back, to be listed again after {@code delay} (a failure that may pass). */
    public void retryLater(Request r, String owner, Duration delay) {
        pool.preparedQuery("UPDATE directory_request SET lease_owner = NULL, lease_until = now() + make_interval(secs => $3) "
                + "WHERE job_id = $1 AND lease_owner = $2").execute(Tuple.of(r.jobId(), owner, (double) delay.toSeconds())).await().atMost(Db.WAIT);
    }

    /**
     * The request removed and its job, locked, when {@code owner} still held it and the job is still waiting for its
     * files (else empty, the request removed all the same when only the job had ended).
     */
    private static Optional<Job> heldOpenJob(SqlClient c, Request r, String owner) {
        RowSet<Row> jobs = c.preparedQuery("SELECT vo, priority, submitted_at, deadline, state FROM job WHERE job_id = $1 FOR UPDATE")
                .execute(Tuple.of(r.jobId())).await().atMost(Db.WAIT);
        if (c.preparedQuery("DELETE FROM directory_request WHERE job_id = $1 AND lease_owner = $2").execute(Tuple.of(r.jobId(), owner))
                .await().atMost(Db.WAIT).rowCount() == 0 || jobs.size() == 0) {
            return Optional.empty();
        }
        Row row = jobs.iterator().next();
        if (JobState.valueOf(row.getString("state")) != JobState.SUBMITTED) {
            return Optional.empty();
        }
        Job job = new Job();
        job.jobId = r.jobId();
        job.vo = row.getString("vo");
        job.priority = row.getInteger("priority");
        job.submittedAt = row.getOffsetDateTime("submitted_at");
        job.deadline = row.getOffsetDateTime("deadline");
        return Optional.of(job);
    }
}
