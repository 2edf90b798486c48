package io.ferry.scheduler.transitions;

import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.db.EngineConnections;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.QueueSnapshot;
import io.ferry.scheduler.submission.TapeParams;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The queue in the database. Claims take rows with {@code FOR UPDATE SKIP LOCKED} and stamp them with the claiming
 * replica, a new claim epoch and a lease, so several replicas on one database never take the same file. A replica
 * that dies loses its files to the others as soon as its heartbeat is missed ({@link #abandonedActive},
 * {@link #releaseClaims}), at the latest when the lease runs out; a claim's writes require its epoch, so a copy
 * that outlived its claim cannot finish the file.
 */
@ApplicationScoped
public class FileQueue {

    /**
     * The rows among {@code $1} (file ids) that meet {@code condition}, locked in file id order. Every statement that
     * changes many files of a batch takes its rows through this, so two of them can wait for each other but never
     * deadlock (the lease renewal and the two outcome writers each locking their rows in whatever order their plan
     * visited them did deadlock, and PostgreSQL failed a batch of prepared files to break it).
     * <p>A statement planned once for all values ({@link EngineConnections}) must write {@code condition} with its
     * columns as expressions no index covers ({@code (state || '') = 'SUBMITTED'}): the one plan then reaches the rows
     * by the ids' primary key, while a plain {@code state = …} lets it scan a queue index by state instead.
     */
    public static String lockedInOrder(String condition) {
        return "SELECT file_id FROM transfer_file WHERE file_id = ANY($1) AND " + condition + " ORDER BY file_id FOR UPDATE";
    }

    /** Every claim names itself anew: the writes of an earlier claim of the same file no longer match. */
    private static final String NEW_EPOCH = "claim_epoch = f.claim_epoch + 1, ";

    /** A queue's key: link, VO, activity. */
    private static final String QUEUE = "source_se, dest_se, vo, activity";

    /** The states transfer_file_due_idx holds. */
    private static final String QUEUED = "state IN ('SUBMITTED', 'STAGING', 'READY')";

    private static final String DUE = "next_attempt_at <= now() AND (lease_until IS NULL OR lease_until < now())";

    private final Pool pool;

    /** For the prepare claim, planned once per connection: nothing in it depends on the values ({@link EngineConnections}). */
    private final Pool claims;

    @Inject
    FileQueue(Pool pool, @EngineConnections Pool claims) {
        this.pool = pool;
        this.claims = claims;
    }

    /**
     * Per (link, VO, activity): waiting (counted up to {@code waitingCap}), preparing, ready, active and staging
     * counts. A pass claims at most its free prepare slots, and the fair share needs a queue's waiting files only up
     * to the slots it shares out, so the waiting files are counted up to the cap from the top of each queue's index
     * and never all of them: counting all would read every waiting file of a job on every pass. The queues are
     * found by skipping through the queue index one (link, VO, activity) at a time; what the queues hold (prepare
     * claims, READY, ACTIVE, STAGING) is bounded by the slots and read from its own indexes.
     */
    public Uni<List<QueueSnapshot>> snapshot(SqlClient c, Duration pin, int waitingCap) {
        return c.preparedQuery("WITH RECURSIVE queue AS ("
                        + "(SELECT " + QUEUE + " FROM transfer_file WHERE " + QUEUED + " ORDER BY " + QUEUE + " LIMIT 1) "
                        + "UNION ALL SELECT n.* FROM queue q CROSS JOIN LATERAL (SELECT " + QUEUE + " FROM transfer_file t WHERE t." + QUEUED
                        + " AND (t.source_se, t.dest_se, t.vo, t.activity) > (q.source_se, q.dest_se, q.vo, q.activity) ORDER BY " + QUEUE
                        + " LIMIT 1) n), "
                        + "waiting AS (SELECT q.*, (SELECT count(*) FROM (SELECT FROM transfer_file t WHERE t.source_se = q.source_se "
                        + "AND t.dest_se = q.dest_se AND t.vo = q.vo AND t.activity = q.activity AND t.state = 'SUBMITTED' "
                        + "AND t.next_attempt_at <= now() AND (t.lease_until IS NULL OR t.lease_until < now()) "
                        + "ORDER BY t.priority DESC, t.claim_by, t.file_id LIMIT $2) w) AS n FROM queue q), "
                        + "held AS (SELECT " + QUEUE + ", count(*) FILTER (WHERE state = 'SUBMITTED') AS preparing, "
                        + "count(*) FILTER (WHERE state = 'READY' AND prepared_at > now() - make_interval(secs => $1)) AS ready, "
                        + "count(*) FILTER (WHERE state = 'ACTIVE') AS active, count(*) FILTER (WHERE state = 'STAGING') AS staging "
                        + "FROM (SELECT " + QUEUE + ", state, prepared_at FROM transfer_file WHERE state IN ('STAGING', 'READY', 'ACTIVE') "
                        + "UNION ALL SELECT " + QUEUE + ", state, NULL FROM transfer_file "
                        + "WHERE state = 'SUBMITTED' AND lease_until IS NOT NULL AND lease_until >= now()) f GROUP BY 1, 2, 3, 4) "
                        + "SELECT " + QUEUE + ", coalesce(w.n, 0), coalesce(h.preparing, 0), coalesce(h.ready, 0), coalesce(h.active, 0), "
                        + "coalesce(h.staging, 0) FROM waiting w FULL JOIN held h USING (" + QUEUE + ") "
                        + "WHERE w.n > 0 OR h.source_se IS NOT NULL")
                .execute(Tuple.of(seconds(pin), waitingCap)).map(FileQueue::snapshots);
    }

    /**
     * Per (link, VO, activity), counting only READY and ACTIVE files (the other counts are 0): all a pass that starts
     * transfers needs. At a job's start thousands of SUBMITTED files would otherwise be counted again on every pass,
     * and that pass runs every few milliseconds while files finish.
     */
    public Uni<List<QueueSnapshot>> startable(SqlClient c, Duration pin) {
        return c.preparedQuery("SELECT " + QUEUE + ", 0::bigint, 0::bigint, "
                        + "count(*) FILTER (WHERE state = 'READY' AND prepared_at > now() - make_interval(secs => $1)), "
                        + "count(*) FILTER (WHERE state = 'ACTIVE'), 0::bigint "
                        + "FROM transfer_file WHERE state IN ('READY', 'ACTIVE') GROUP BY 1, 2, 3, 4")
                .execute(Tuple.of(seconds(pin))).map(FileQueue::snapshots);
    }

    private static List<QueueSnapshot> snapshots(RowSet<Row> rows) {
        List<QueueSnapshot> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(new QueueSnapshot(r.getString(0), r.getString(1), r.getString(2), r.getString(3), r.getLong(4).intValue(),
                    r.getLong(5).intValue(), r.getLong(6).intValue(), r.getLong(7).intValue(), r.getLong(8).intValue()));
        }
        return out;
    }

    /**
     * Takes up to n waiting files of one queue for preparing: highest priority first, then earliest due
     * ({@code claim_by}: the job's deadline, else its submission plus the undated horizon), then in file order.
     */
    public Uni<List<ClaimedFile>> claimForPrepare(QueueSnapshot q, int n, String owner, Duration lease) {
        return claim(claims, "lease_owner = $6, lease_until = now() + make_interval(secs => $7), prepare_started_at = now()",
                "state = 'SUBMITTED' AND " + DUE, Tuple.tuple().addString(q.sourceSe()).addString(q.destSe()).addString(q.vo())
                        .addString(q.activity()).addInteger(n).addString(owner).addDouble(seconds(lease)));
    }

    /** Files whose stage request is due for a poll, any queue. */
    public Uni<List<ClaimedFile>> claimStagingPolls(int n, String owner, Duration lease) {
        return pool.preparedQuery("UPDATE transfer_file f SET " + NEW_EPOCH + "lease_owner = $2, lease_until = now() + make_interval(secs => $3) "
                        + "FROM job j WHERE j.job_id = f.job_id AND f.file_id IN (SELECT file_id FROM transfer_file t WHERE state = 'STAGING' AND "
                        + DUE + " AND NOT " + Bans.banned("t.source_se", "t.dest_se", "t.vo", null) + " ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING " + ClaimedFile.COLUMNS)
                .execute(Tuple.of(n, owner, seconds(lease))).map(FileQueue::files);
    }

    /**
     * The claim that starts up to n prepared files of one queue ({@link #transferClaimArgs}, $1–$8): ACTIVE, one more
     * attempt, leased to the owner. It returns {@link ClaimedFile#COLUMNS} and then {@code job_state}, the job's state
     * as the claim read it, for a statement that wraps it as a CTE to announce the files
     * ({@code transitions.StateStore.SchedulingPass.claimStarted}).
     */
    public static String transferClaim() {
        return claimStatement("state = 'ACTIVE', lease_owner = $6, lease_until = now() + make_interval(secs => $7), start_time = clock_timestamp(), "
                + "attempts = f.attempts + 1", "state = 'READY' AND prepared_at > now() - make_interval(secs => $8)", ", j.state AS job_state");
    }

    /** The parameters of {@link #transferClaim}. */
    public static Tuple transferClaimArgs(QueueSnapshot q, int n, String owner, Duration lease, Duration pin) {
        return Tuple.tuple().addString(q.sourceSe()).addString(q.destSe()).addString(q.vo()).addString(q.activity()).addInteger(n)
                .addString(owner).addDouble(seconds(lease)).addDouble(seconds(pin));
    }

    private static Uni<List<ClaimedFile>> claim(SqlClient c, String set, String where, Tuple args) {
        return c.preparedQuery(claimStatement(set, where, "")).execute(args).map(FileQueue::files);
    }

    private static String claimStatement(String set, String where, String alsoReturning) {
        return "UPDATE transfer_file f SET " + NEW_EPOCH + set + " FROM job j WHERE j.job_id = f.job_id AND f.file_id IN ("
                + "SELECT file_id FROM transfer_file WHERE source_se = $1 AND dest_se = $2 AND vo = $3 AND activity = $4 AND "
                // a banned SE's files stay queued (FTS3's bans); the queue's link is fixed, so this is one probe per claim
                + where + " AND NOT " + Bans.banned("$1", "$2", "$3", null) + " ORDER BY priority DESC, claim_by, file_id LIMIT $5 FOR UPDATE SKIP LOCKED) RETURNING "
                + ClaimedFile.COLUMNS + alsoReturning;
    }

    /**
     * Extends the leases of the claims this replica still holds (file and epoch); answers the files it holds (the
     * others were taken away). Multi-row updates of transfer_file lock their rows in file id order ({@link #lockedInOrder}).
     */
    public Uni<Set<Long>> renew(List<ClaimedFile> claims, String owner, Duration lease) {
        if (claims.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return pool.preparedQuery("UPDATE transfer_file f SET lease_until = now() + make_interval(secs => $3) "
                        + "FROM unnest($1::bigint[], $4::bigint[]) AS v(id, epoch) WHERE f.file_id = v.id AND f.claim_epoch = v.epoch "
                        + "AND f.file_id IN (" + lockedInOrder("lease_owner = $2 AND state IN ('SUBMITTED', 'STAGING', 'ACTIVE')") + ") RETURNING f.file_id")
                .execute(Tuple.of(claims.stream().map(ClaimedFile::fileId).toArray(Long[]::new), owner, seconds(lease),
                        claims.stream().map(ClaimedFile::claimEpoch).toArray(Long[]::new))).map(rows -> {
                    Set<Long> held = new HashSet<>();
                    rows.forEach(r -> held.add(r.getLong(0)));
                    return held;
                });
    }

    /** The ACTIVE files of a replica that stopped beating, with their claims, to be queued again as lapsed attempts. */
    public Uni<List<ClaimedFile>> abandonedActive(String owner) {
        return pool.preparedQuery("SELECT " + ClaimedFile.COLUMNS + " FROM transfer_file f JOIN job j ON j.job_id = f.job_id "
                + "WHERE f.state = 'ACTIVE' AND f.lease_owner = $1 ORDER BY f.file_id").execute(Tuple.of(owner)).map(FileQueue::files);
    }

    /**
     * Gives up the prepare and stage-poll claims of {@code owner} (a dead replica's, or a draining replica's own): the
     * files wait again as they were, nothing else changes, no attempt is used. Answers how many.
     */
    public Uni<Integer> releaseClaims(String owner) {
        return pool.preparedQuery("UPDATE transfer_file SET lease_owner = NULL, lease_until = NULL WHERE file_id IN ("
                        + "SELECT file_id FROM transfer_file WHERE lease_owner = $1 AND state IN ('SUBMITTED', 'STAGING') ORDER BY file_id FOR UPDATE)")
                .execute(Tuple.of(owner)).map(rows -> rows.rowCount());
    }


    /** ACTIVE files whose replica stopped renewing their lease. */
    public Uni<List<Long>> expiredActive(int n) {
        return ids("SELECT file_id FROM transfer_file WHERE state = 'ACTIVE' AND lease_until < now() ORDER BY lease_until LIMIT $1", n);
    }

    /** Files still queued although their job's max_time_in_queue has passed. */
    public Uni<List<Long>> queueExpired(int n) {
        return ids("SELECT f.file_id FROM transfer_file f JOIN job j ON j.job_id = f.job_id WHERE f.state IN ('SUBMITTED', 'STAGING', 'READY') "
                + "AND j.max_time_in_queue IS NOT NULL AND j.submitted_at + make_interval(secs => j.max_time_in_queue) < now() LIMIT $1", n);
    }

    /** Prepared files that waited longer than the pin lifetime go back to be prepared again; answers how many. */
    public Uni<Integer> unpinStale(Duration pin) {
        return pool.preparedQuery("UPDATE transfer_file SET state = 'SUBMITTED', prepared_at = NULL, stage_request = NULL, "
                        + "next_attempt_at = now() WHERE state = 'READY' AND prepared_at <= now() - make_interval(secs => $1)")
                .execute(Tuple.of(seconds(pin))).map(rows -> rows.rowCount());
    }

    /** One claimed file, re-read inside an outcome's transaction (null if it no longer exists). */
    public Uni<ClaimedFile> read(SqlClient c, long fileId) {
        return c.preparedQuery("SELECT " + ClaimedFile.COLUMNS + " FROM transfer_file f JOIN job j ON j.job_id = f.job_id WHERE f.file_id = $1")
                .execute(Tuple.of(fileId)).map(rows -> rows.size() == 0 ? null : ClaimedFile.of(rows.iterator().next()));
    }

    private Uni<List<Long>> ids(String sql, int n) {
        return pool.preparedQuery(sql).execute(Tuple.of(n)).map(rows -> {
            List<Long> out = new ArrayList<>();
            rows.forEach(r -> out.add(r.getLong(0)));
            return out;
        });
    }

    private static List<ClaimedFile> files(RowSet<Row> rows) {
        List<ClaimedFile> out = new ArrayList<>();
        rows.forEach(r -> out.add(ClaimedFile.of(r)));
        return out;
    }

    public static double seconds(Duration d) {
        return d.toMillis() / 1000.0;
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
                .forEach(r -> due.add(new Archiving(ClaimedFile.of(r), TapeParams.ofStored(r.getString(ClaimedFile.COLUMN_COUNT)),
                        r.getOffsetDateTime(ClaimedFile.COLUMN_COUNT + 1))));
        return due;
    }

    /** Replaces a file's {@code file_metadata} with what {@code rewrite} makes of it (FTS3's {@code dst_file} report). */
    public static void rewriteMetadata(Pool pool, long fileId, UnaryOperator<String> rewrite) {
        String metadata = pool.preparedQuery("SELECT file_metadata FROM transfer_file WHERE file_id = $1")
                .execute(Tuple.of(fileId)).await().atMost(Db.WAIT).iterator().next().getString(0);
        pool.preparedQuery("UPDATE transfer_file SET file_metadata = $2 WHERE file_id = $1")
                .execute(Tuple.of(fileId, rewrite.apply(metadata))).await().atMost(Db.WAIT);
    }
}
