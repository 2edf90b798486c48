package io.ferry.scheduler.transitions;

import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.db.EngineConnections;
import io.ferry.scheduler.db.Tx;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.queue.QueueSnapshot;
import io.ferry.scheduler.storage.SchedulingInputsCache;
import io.ferry.scheduler.transitions.events.StateChanged;
import io.ferry.scheduler.transitions.events.StateEvents;
import io.ferry.storageurl.StorageUrl;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * The one writer of file and job states — the engine's changes and a user's cancel alike — each in one transaction
 * with what must go with it: the job's state ({@link JobStateRule}), the retry history, the transfer record in the
 * outbox and the NOTIFY for event subscribers (only a job's last finished files take a second one, for the job's
 * final state and their event). (Claims, which only take queued files, are the queue's:
 * {@code transitions.FileQueue}.)
 * Files of one job finish in parallel without waiting for each other: while a job has open files its state is
 * derived from a few index probes, and only the change that closes its last file takes the job row (never waiting
 * for it: a job row held by a cancel, or two last files closing at once, are settled later by {@link #settle}).
 * Each update is guarded (the claim must still be this replica's), so a file cancelled or taken over in the meantime
 * is left alone. Once a change committed it is announced on {@link StateEvents} ({@link StateChanged}): wake-ups and
 * counters observe it, this class calls neither.
 */
@ApplicationScoped
public class StateChanges implements StateStore {

    private static final Logger LOG = Logger.getLogger(StateChanges.class);

    private final Pool pool;

    /** For the prepared files' update, planned once per connection (see {@link #writePrepared}). */
    private final Pool planOnce;

    private final JobEvents events;
    private final TransferRecords records;
    private final EngineIdentity identity;
    private final SchedulingInputsCache inputs;

    /** Where each committed change is announced (wake-ups and counters observe it). */
    private final StateEvents changes;
    private final FileQueue queue;

    @Inject
    StateChanges(Pool pool, @EngineConnections Pool planOnce, JobEvents events, TransferRecords records, EngineIdentity identity,
                 SchedulingInputsCache inputs, StateEvents changes, FileQueue queue) {
        this.pool = pool;
        this.planOnce = planOnce;
        this.events = events;
        this.records = records;
        this.identity = identity;
        this.inputs = inputs;
        this.changes = changes;
        this.queue = queue;
    }

    @Override
    public boolean prepared(ClaimedFile f, SourceStat stat) {
        if (f.state() != FileState.STAGING) {
            return preparedWriter.submit(new Prepared(f, stat));
        }
        // stage_request is kept: the copy releases it when it is over
        return change(f, Guard.PREPARING, "state = 'READY', prepared_at = now(), staging_finished = now(), source_size = $3, source_ranges = $4, "
                + "lease_owner = NULL, lease_until = NULL", Tuple.of(stat.size(), stat.ranges()), FileState.READY, "prepared", null, (c, ok) -> Uni.createFrom().voidItem());
    }

    @Override
    public boolean staging(ClaimedFile f, String request, OffsetDateTime nextPoll) {
        return change(f, Guard.PREPARING, "state = 'STAGING', stage_request = $3, staging_start = now(), staging_finished = NULL, next_attempt_at = $4, "
                + "lease_owner = NULL, lease_until = NULL", Tuple.of(request, nextPoll), FileState.STAGING, "stage request " + request,
                null, (c, ok) -> Uni.createFrom().voidItem());
    }

    @Override
    public boolean alreadyThere(ClaimedFile f, String why) {
        return change(f, Guard.PREPARING, "state = 'FINISHED', prepared_at = now(), finish_time = clock_timestamp(), bytes_transferred = 0, "
                + "reason = $3, error_code = NULL, error_phase = NULL, lease_owner = NULL, lease_until = NULL", Tuple.of(why), FileState.FINISHED,
                why, null, (c, ok) -> Uni.createFrom().voidItem());
    }

    @Override
    public void stillStaging(ClaimedFile f, OffsetDateTime nextPoll) {
        pool.preparedQuery("UPDATE transfer_file SET next_attempt_at = $3, lease_owner = NULL, lease_until = NULL "
                        + "WHERE file_id = $1 AND state = 'STAGING' AND lease_owner = $2 AND claim_epoch = $4")
                .execute(Tuple.of(f.fileId(), identity.id(), nextPoll, f.claimEpoch())).await().atMost(Db.WAIT);
    }

    @Override
    public boolean archived(ClaimedFile f) {
        return change(f, Guard.ARCHIVING, "state = 'FINISHED', finish_time = clock_timestamp()", Tuple.tuple(), FileState.FINISHED,
                "on tape", null, (c, ok) -> Uni.createFrom().voidItem());
    }

    @Override
    public boolean archiveFailed(ClaimedFile f, MoverException.Code code, String reason) {
        return change(f, Guard.ARCHIVING, "state = 'FAILED', finish_time = clock_timestamp(), reason = $3, error_code = $4, error_phase = 'ARCHIVING'",
                Tuple.of(reason, code.name()), FileState.FAILED, reason, null, (c, ok) -> Uni.createFrom().voidItem());
    }

    @Override
    public long finished(ClaimedFile f, long bytes, int streams, double throughput, AttemptTimes t) {
        return finished(f, bytes, streams, throughput, t, false);
    }

    @Override
    public long finished(ClaimedFile f, long bytes, int streams, double throughput, AttemptTimes t, boolean archive) {
        finishedWriter.submit(new Finished(f, bytes, streams, throughput, t, archive));
        return finishedWriter.lastWrittenNanos();
    }

    private record Prepared(ClaimedFile file, SourceStat stat) {
    }

    private record Finished(ClaimedFile file, long bytes, int streams, double throughput, AttemptTimes times, boolean archive) {
    }

    private BatchWriter<Prepared> preparedWriter;
    private BatchWriter<Finished> finishedWriter;

    @PostConstruct
    void writers() {
        preparedWriter = new BatchWriter<>("prepared-writer", 500, this::writePrepared);
        finishedWriter = new BatchWriter<>("finished-writer", 500, b -> b.file().jobId(), this::writeFinished);
    }

    @PreDestroy
    void stopWriters() {
        preparedWriter.stop();
        finishedWriter.stop();
    }

    /** Prepared files (from SUBMITTED) become READY, with one event per job, in one statement. */
    private List<Boolean> writePrepared(List<Prepared> batch) {
        Set<Long> applied = new HashSet<>();
        // the job's state as the update read it: becoming READY from SUBMITTED does not change it. One statement, so
        // no transaction around it: BEGIN and COMMIT were two of the round trips per batch. Planned once per
        // connection, through the ids' primary key: left to PostgreSQL, it was either planned on every execution or
        // given a generic plan that scanned the link's queued files by state (see FileQueue.lockedInOrder).
        planOnce.preparedQuery("WITH prepared AS (UPDATE transfer_file f SET state = 'READY', prepared_at = now(), source_size = v.size, "
                        + "source_ranges = v.ranges, stage_request = NULL, lease_owner = NULL, lease_until = NULL "
                        + "FROM unnest($1::bigint[], $2::bigint[], $3::bool[], $5::bigint[]) AS v(id, size, ranges, epoch), job j "
                        + "WHERE f.file_id = v.id AND f.claim_epoch = v.epoch AND j.job_id = f.job_id AND f.file_id IN ("
                        + FileQueue.lockedInOrder("(state || '') = 'SUBMITTED' AND (lease_owner || '') = $4") + ") RETURNING f.file_id, f.job_id, j.state AS job_state), "
                        + "notified AS (" + JobEvents.notifyChanged("prepared", "job_state", 6, 7, 8) + ") "
                        + "SELECT file_id, job_id, job_state, (SELECT count(*) FROM notified) FROM prepared")
                .execute(Tuple.from(List.<Object>of(batch.stream().map(p -> p.file().fileId()).toArray(Long[]::new),
                        batch.stream().map(p -> p.stat().size()).toArray(Long[]::new),
                        batch.stream().map(p -> p.stat().ranges()).toArray(Boolean[]::new), identity.id(),
                        batch.stream().map(p -> p.file().claimEpoch()).toArray(Long[]::new),
                        FileState.READY.name(), "prepared", JobEvents.now())))
                .map(rows -> byJob(rows, applied)).await().atMost(Db.WAIT)
                .forEach((job, ids) -> changes.publish(StateChanged.files(job.id(), ids, FileState.SUBMITTED, FileState.READY, job.state(),
                        "prepared", null, null, null)));
        return batch.stream().map(p -> applied.contains(p.file().fileId())).toList();
    }

    /**
     * Finished files of one job (ARCHIVING those to archive), in one statement without a transaction around it: the
     * files' update, their transfer records, a multihop job's next hop, the job's state by the rule and one event per
     * file state. Only the job's last files (none left open) take a second transaction, for the job's final state
     * and their event: it locks the job row, and the statement must not wait for a cancel holding it.
     */
    private List<Boolean> writeFinished(List<Finished> batch) {
        UUID job = batch.get(0).file().jobId();
        // Built here, on the writer's thread: building reads the SE directory, which may have to query (and wait for)
        // the database, and the continuations below run on the event loop, where nothing may wait.
        List<TransferRecords.Built> built = batch.stream().map(b -> records.build(b.file(), b.file().attempts(), b.times(),
                TransferRecords.Outcome.finished(b.bytes(), b.streams()))).toList();
        Set<Long> applied = new HashSet<>();
        List<Long> closing = new ArrayList<>();
        JobState[] current = {null};
        Map<Long, JobState> jobAfter = new HashMap<>();
        pool.preparedQuery("WITH done AS (UPDATE transfer_file f SET state = CASE WHEN v.archive THEN 'ARCHIVING' ELSE 'FINISHED' END, "
                        + "finish_time = clock_timestamp(), next_attempt_at = CASE WHEN v.archive THEN now() ELSE f.next_attempt_at END, "
                        + "bytes_transferred = v.bytes, streams = v.streams, throughput = v.throughput, reason = NULL, error_code = NULL, "
                        + "error_phase = NULL, lease_owner = NULL, lease_until = NULL "
                        + "FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::float8[], $6::bigint[], $10::bool[]) AS v(id, bytes, streams, throughput, epoch, archive) "
                        + "WHERE f.file_id = v.id AND f.claim_epoch = v.epoch AND f.file_id IN (" + FileQueue.lockedInOrder("state = 'ACTIVE' AND lease_owner = $5")
                        + ") RETURNING f.file_id, f.job_id, f.file_index, f.state), recorded AS (" + TransferRecords.insertForChanged("done", 7) + "), "
                        // a multihop job's next hop may start once this one finished (NOT_USED files are only ever hops
                        // waiting for their turn): the job stays open
                        + "next_hops AS (UPDATE transfer_file n SET state = 'SUBMITTED', next_attempt_at = now() FROM done d "
                        + "WHERE n.job_id = d.job_id AND n.file_index = d.file_index + 1 AND n.state = 'NOT_USED' AND d.state = 'FINISHED' "
                        + "RETURNING n.file_id, n.state), "
                        + "changed AS (SELECT file_id, state FROM done UNION ALL SELECT file_id, state FROM next_hops), "
                        + "decided AS (" + JobStateWrites.decidedAfter("changed", 11, 12) + "), "
                        + "job_written AS (" + JobStateWrites.writeDecided("decided", 11) + "), "
                        + "announced AS (SELECT d.file_id, d.job_id, d.state, x.next FROM done d, decided x WHERE x.open OR x.over), "
                        + "notified AS (" + JobEvents.notifyChanged("announced", "next", "state",
                        "CASE WHEN state = 'ARCHIVING' THEN $15::text ELSE $14::text END", 13) + ") "
                        + "SELECT d.file_id, d.job_id, d.state, coalesce(x.open OR x.over, TRUE), x.current, (SELECT count(*) FROM notified), x.next "
                        + "FROM done d LEFT JOIN decided x ON TRUE")
                .execute(Tuple.from(List.<Object>of(batch.stream().map(b -> b.file().fileId()).toArray(Long[]::new),
                        batch.stream().map(Finished::bytes).toArray(Long[]::new),
                        batch.stream().map(Finished::streams).toArray(Integer[]::new),
                        batch.stream().map(Finished::throughput).toArray(Double[]::new), identity.id(),
                        batch.stream().map(b -> b.file().claimEpoch()).toArray(Long[]::new),
                        batch.stream().map(b -> b.file().fileId()).toArray(Long[]::new),
                        built.stream().map(TransferRecords.Built::id).toArray(String[]::new),
                        built.stream().map(TransferRecords.Built::payload).toArray(String[]::new),
                        batch.stream().map(Finished::archive).toArray(Boolean[]::new), job, JobStateWrites.WHILE_OPEN_TABLE,
                        JobEvents.now(), "finished", "copied; archiving")))
                .invoke(rows -> rows.forEach(r -> {
                    applied.add(r.getLong(0));
                    if (r.getString(6) != null) {
                        jobAfter.put(r.getLong(0), JobState.valueOf(r.getString(6)));
                    }
                    if (!r.getBoolean(3)) {
                        closing.add(r.getLong(0));
                        current[0] = JobState.valueOf(r.getString(4));
                    }
                })).await().atMost(Db.WAIT);
        if (!closing.isEmpty()) {
            JobState closed = closeJob(job, current[0], closing);
            closing.forEach(id -> jobAfter.put(id, closed));
        }
        batch.stream().filter(b -> applied.contains(b.file().fileId())).forEach(b -> changes.publish(StateChanged.files(job,
                List.of(b.file().fileId()), FileState.ACTIVE, b.archive() ? FileState.ARCHIVING : FileState.FINISHED,
                jobAfter.get(b.file().fileId()), b.archive() ? "copied; archiving" : "finished", link(b.file()), b.file().vo(),
                new StateChanged.Attempt(FileState.FINISHED, null, b.bytes(), null))));
        return batch.stream().map(b -> applied.contains(b.file().fileId())).toList();
    }

    /**
     * The job's last open files finished (committed): its final state, when its row can be had now, and their event.
     * A failure here changes nothing of the files: the settler ({@link #settle}) ends the job later, and the files'
     * event still goes out, with the job's state as the statement left it. Answers the job's state.
     */
    private JobState closeJob(UUID job, JobState current, List<Long> finished) {
        try {
            return pool.withTransaction(c -> JobStateWrites.whenNoneOpen(c, job, current)
                    .call(state -> events.publish(c, job, finished, FileState.FINISHED, state, "finished"))).await().atMost(Db.WAIT);
        } catch (RuntimeException e) {
            LOG.debugf("job %s: its final state is left to the settler (%s)", job, e.toString());
            try {
                events.publish(pool, job, finished, FileState.FINISHED, current, "finished").await().atMost(Db.WAIT);
            } catch (RuntimeException again) {
                LOG.warnf("job %s: the FINISHED event of %d file(s) was not sent (%s)", job, finished.size(), again.toString());
            }
            return current;
        }
    }

    private static StateChanged.Link link(ClaimedFile f) {
        return new StateChanged.Link(f.sourceSe(), f.destSe());
    }

    private static StateChanged.Attempt attempt(MoverException e, long bytes, Guard guard) {
        return new StateChanged.Attempt(e.code() == MoverException.Code.CANCELED ? FileState.CANCELED : FileState.FAILED, e.code().name(), bytes,
                guard == Guard.ABANDONED ? StateChanged.TakenBack.REPLICA_DEAD : guard == Guard.LEASE_LAPSED ? StateChanged.TakenBack.LEASE_LAPSED : null);
    }

    /** A job and its state as a statement read it. */
    private record JobAt(UUID id, JobState state) {
    }

    /** The files of rows (file_id, job_id, job_state) by job. */
    private static Map<JobAt, List<Long>> byJob(RowSet<Row> rows, Set<Long> applied) {
        Map<JobAt, List<Long>> byJob = new LinkedHashMap<>();
        for (Row r : rows) {
            applied.add(r.getLong(0));
            byJob.computeIfAbsent(new JobAt(r.getUUID(1), JobState.valueOf(r.getString(2))), k -> new ArrayList<>()).add(r.getLong(0));
        }
        return byJob;
    }

    @Override
    public void failed(ClaimedFile f, Guard guard, int attempt, MoverException e, long bytes, Integer streams, AttemptTimes t) {
        boolean lapsed = e.code() == MoverException.Code.LEASE_EXPIRED;
        boolean again = lapsed || RetryPolicy.retry(e.retryable(), attempt, f.retry());
        if (!again && !NOT_THE_SOURCES_FAULT.contains(e.code()) && !f.alternativeSources().isEmpty()
                && nextSource(f, guard, attempt, e, bytes, streams, t)) {
            return;
        }
        String set = again
                ? "state = 'SUBMITTED', next_attempt_at = now() + make_interval(secs => $7), prepared_at = NULL, stage_request = NULL, "
                + "dest_ours = dest_ours OR $8, "
                : "state = 'FAILED', finish_time = clock_timestamp(), ";
        set += "reason = $3, error_code = $4, error_phase = $5, attempts = $6, lease_owner = NULL, lease_until = NULL";
        Tuple args = Tuple.of(e.getMessage(), e.code().name(), e.phase(), attempt);
        if (again) {
            args.addDouble(lapsed ? 0.0 : f.retryDelay()).addBoolean(lapsed);
        }
        String reason = e.code() + ": " + e.getMessage() + (again ? " (attempt " + attempt + "; will be retried)" : "");
        TransferRecords.Built record = records.build(f, attempt, t, new TransferRecords.Outcome(
                e.code() == MoverException.Code.CANCELED ? "CANCELED" : "FAILED", bytes, streams, e.code().name(), e.phase(),
                e.getMessage(), e.retryable()));
        change(f, guard, set, args, again ? FileState.SUBMITTED : FileState.FAILED, reason, attempt(e, bytes, guard), (c, ok) -> {
            Uni<Void> history = again
                    ? c.preparedQuery("INSERT INTO file_retry (file_id, attempt, reason, error_code, error_phase) VALUES ($1, $2, $3, $4, $5) "
                    + "ON CONFLICT DO NOTHING").execute(Tuple.of(f.fileId(), attempt, e.getMessage(), e.code().name(), e.phase())).replaceWithVoid()
                    : Uni.createFrom().voidItem();
            return history.chain(x -> records.write(c, record));
        });
    }

    /** Failures another source cannot mend. */
    static final Set<MoverException.Code> NOT_THE_SOURCES_FAULT = Set.of(MoverException.Code.DEST_EXISTS, MoverException.Code.CANCELED,
            MoverException.Code.QUEUE_EXPIRED);

    /**
     * FTS3's multiple sources: the current source failed for good, so the file goes back to the queue with the next
     * source the job gave (its SE looked up now), the failure kept in the retry history. Answers whether it switched.
     */
    private boolean nextSource(ClaimedFile f, Guard guard, int attempt, MoverException e, long bytes, Integer streams, AttemptTimes t) {
        List<String> alternatives = f.alternativeSources();
        Optional<StorageUrl> canonical = StorageUrl.tryParse(alternatives.get(0));
        String nextSe = canonical.flatMap(u -> inputs.get().seOf(u)).orElse(null);
        if (nextSe == null) {
            return false;
        }
        String next = canonical.get().toString();
        String rest = alternatives.size() > 1 ? new JsonArray(alternatives.subList(1, alternatives.size())).encode() : null;
        String why = e.getMessage() + "; trying the next source " + next;
        TransferRecords.Built record = records.build(f, attempt, t, new TransferRecords.Outcome("FAILED", bytes, streams, e.code().name(),
                e.phase(), e.getMessage(), e.retryable()));
        return change(f, guard, "state = 'SUBMITTED', next_attempt_at = now(), prepared_at = NULL, stage_request = NULL, source_size = NULL, "
                        + "source_url = $3, source_se = $4, alternatives = $5, reason = $6, error_code = $7, error_phase = $8, attempts = $9, "
                        + "lease_owner = NULL, lease_until = NULL",
                Tuple.tuple().addString(next).addString(nextSe).addString(rest).addString(why).addString(e.code().name()).addString(e.phase())
                        .addInteger(attempt), FileState.SUBMITTED, e.code() + ": " + why, attempt(e, bytes, guard),
                (c, ok) -> c.preparedQuery("INSERT INTO file_retry (file_id, attempt, reason, error_code, error_phase) VALUES ($1, $2, $3, $4, $5) "
                                + "ON CONFLICT DO NOTHING").execute(Tuple.of(f.fileId(), attempt, why, e.code().name(), e.phase()))
                        .chain(x -> records.write(c, record)));
    }

    @Override
    public boolean handedBack(ClaimedFile f, String reason) {
        return change(f, Guard.RUNNING, "state = 'SUBMITTED', attempts = greatest(attempts - 1, 0), next_attempt_at = now(), prepared_at = NULL, "
                + "stage_request = NULL, dest_ours = TRUE, lease_owner = NULL, lease_until = NULL", Tuple.tuple(), FileState.SUBMITTED, reason,
                null, (c, ok) -> Uni.createFrom().voidItem());
    }

    @Override
    public boolean deferred(ClaimedFile f, Guard guard, Duration delay, String reason) {
        String set = guard == Guard.RUNNING
                ? "state = 'SUBMITTED', attempts = greatest(attempts - 1, 0), prepared_at = NULL, stage_request = NULL, "
                : "";
        return change(f, guard, set + "next_attempt_at = now() + make_interval(secs => $3), reason = $4, lease_owner = NULL, lease_until = NULL",
                Tuple.of(delay.toMillis() / 1000.0, reason), guard == Guard.RUNNING ? FileState.SUBMITTED : f.state(), reason,
                null, (c, ok) -> Uni.createFrom().voidItem());
    }

    @Override
    public void canceledAttempt(ClaimedFile f, long bytes, Integer streams, AttemptTimes t, String why) {
        TransferRecords.Built record = records.build(f, f.attempts(), t,
                new TransferRecords.Outcome("CANCELED", bytes, streams, "CANCELED", "transfer", why, false));
        pool.withTransaction(c -> records.write(c, record)).await().atMost(Db.WAIT);
        changes.publish(StateChanged.files(f.jobId(), List.of(f.fileId()), FileState.CANCELED, FileState.CANCELED, null, why, link(f), f.vo(),
                new StateChanged.Attempt(FileState.CANCELED, MoverException.Code.CANCELED.name(), bytes, null)));
    }

    interface After {
        Uni<Void> apply(SqlClient c, boolean changed);
    }

    /**
     * Applies the guarded update, then (if it applied) the extra work, the job's state and the NOTIFY, in one
     * transaction; once committed, announces the change ({@link StateChanged}, with the attempt it ended if any).
     */
    private boolean change(ClaimedFile f, Guard guard, String set, Tuple extra, FileState to, String reason, StateChanged.Attempt attempt,
                           After after) {
        Tuple args = Tuple.of(f.fileId(), identity.id());
        for (int i = 0; i < extra.size(); i++) {
            args.addValue(extra.getValue(i));
        }
        String where = guard.where;
        if (where.contains("{epoch}")) {
            where = where.replace("{epoch}", "$" + (args.size() + 1));
            args.addLong(f.claimEpoch());
        }
        String guarded = where;
        JobState jobState = pool.withTransaction(c -> c.preparedQuery("UPDATE transfer_file SET " + set + " WHERE file_id = $1 AND " + guarded)
                .execute(args).chain(rows -> {
                    if (rows.rowCount() == 0) {
                        return Uni.createFrom().<JobState>nullItem();
                    }
                    return after.apply(c, true).chain(x -> JobStateWrites.afterFileChange(c, f.jobId()))
                            .call(state -> events.publish(c, f.jobId(), List.of(f.fileId()), to, state, reason));
                })).await().atMost(Db.WAIT);
        if (jobState == null) {
            return false;
        }
        changes.publish(StateChanged.files(f.jobId(), List.of(f.fileId()), f.state(), to, jobState, reason,
                link(f), f.vo(), attempt));
        return true;
    }

    @Override
    public void started(UUID jobId, List<Long> fileIds, String reason) {
        JobState active = JobStateRule.whileOpen(true, false, false);
        int written = pool.withTransaction(c -> c.preparedQuery("UPDATE job SET state = $2 WHERE job_id = $1 AND state IN ("
                        + JobState.sql(EnumSet.of(JobState.SUBMITTED, JobState.STAGING)) + ")")
                .execute(Tuple.of(jobId, active.name())).call(x -> events.publish(c, jobId, fileIds, FileState.ACTIVE, active, reason)))
                .await().atMost(Db.WAIT).rowCount();
        if (written > 0) {
            changes.publish(StateChanged.job(jobId, active, reason));
        }
    }

    /** Key of the advisory lock that serialises scheduling passes across replicas. */
    static final long SCHEDULING_LOCK = 0x4645525259L;

    @Override
    public <T> T schedulingPass(Function<SchedulingPass, T> work) {
        List<StateChanged> claimed = new ArrayList<>();
        T result = Tx.runLocked(planOnce, SCHEDULING_LOCK, c -> work.apply(new SchedulingPass() {
            @Override
            public List<QueueSnapshot> startable(Duration pin) {
                return queue.startable(c, pin).await().atMost(Db.WAIT);
            }

            @Override
            public Claim claimStarted(QueueSnapshot q, int n, String owner, Duration lease, Duration pin, String reason) {
                Claim claim = StateChanges.claimStarted(c, q, n, owner, lease, pin, reason).await().atMost(Db.WAIT);
                Map<UUID, List<Long>> byJob = new LinkedHashMap<>();
                claim.files().forEach(f -> byJob.computeIfAbsent(f.jobId(), k -> new ArrayList<>()).add(f.fileId()));
                byJob.forEach((job, ids) -> claimed.add(StateChanged.files(job, ids, FileState.READY, FileState.ACTIVE, null, reason,
                        new StateChanged.Link(q.sourceSe(), q.destSe()), q.vo(), null)));
                return claim;
            }
        }));
        claimed.forEach(changes::publish);
        return result;
    }

    private static Uni<Claim> claimStarted(SqlClient c, QueueSnapshot q, int n, String owner, Duration lease, Duration pin, String reason) {
        String jobWritten = "claimed.job_state NOT IN (" + JobState.sql(EnumSet.of(JobState.SUBMITTED, JobState.STAGING)) + ")";
        return c.preparedQuery("WITH claimed AS (" + FileQueue.transferClaim() + "), "
                        + "announced AS (SELECT file_id, job_id, $9::text AS job_state FROM claimed WHERE " + jobWritten + "), "
                        + "notified AS (" + JobEvents.notifyChanged("announced", "job_state", 10, 11, 12) + ") "
                        + "SELECT claimed.*, " + jobWritten + ", (SELECT count(*) FROM notified) FROM claimed")
                .execute(FileQueue.transferClaimArgs(q, n, owner, lease, pin).addString(JobStateRule.whileOpen(true, false, false).name())
                        .addString(FileState.ACTIVE.name()).addString(reason).addString(JobEvents.now()))
                .map(rows -> {
                    List<ClaimedFile> files = new ArrayList<>();
                    Map<UUID, List<Long>> jobsToStart = new LinkedHashMap<>();
                    for (Row r : rows) {
                        ClaimedFile f = ClaimedFile.of(r);
                        files.add(f);
                        if (!r.getBoolean(ClaimedFile.COLUMN_COUNT + 1)) {
                            jobsToStart.computeIfAbsent(f.jobId(), k -> new ArrayList<>()).add(f.fileId());
                        }
                    }
                    return new Claim(files, jobsToStart);
                });
    }

    @Override
    public List<UUID> unsettledJobs() {
        List<UUID> unsettled = new ArrayList<>();
        for (Row r : pool.query("SELECT job_id FROM job j WHERE state IN (" + JobState.sql(JobState.OPEN) + ") AND NOT EXISTS ("
                + "SELECT 1 FROM transfer_file f WHERE f.job_id = j.job_id AND f.state IN (" + FileState.sql(FileState.OPEN) + ")) "
                // a directory job has no files until its tree is listed
                + "AND NOT EXISTS (SELECT 1 FROM directory_request d WHERE d.job_id = j.job_id) LIMIT 500")
                .execute().await().atMost(Db.WAIT)) {
            unsettled.add(r.getUUID(0));
        }
        return unsettled;
    }

    @Override
    public void settle(UUID job) {
        JobState settled = Tx.run(pool, c -> {
            if (c.preparedQuery("SELECT 1 FROM job WHERE job_id = $1 FOR UPDATE SKIP LOCKED").execute(Tuple.of(job)).await()
                    .atMost(Db.WAIT).size() == 0) {
                return null;
            }
            JobState state = JobStateWrites.refresh(c, job).await().atMost(Db.WAIT);
            var last = c.preparedQuery("SELECT file_id, state FROM transfer_file WHERE job_id = $1 ORDER BY finish_time DESC NULLS LAST LIMIT 1")
                    .execute(Tuple.of(job)).await().atMost(Db.WAIT);
            if (last.size() > 0) {
                Row f = last.iterator().next();
                events.publish(c, job, List.of(f.getLong(0)), FileState.valueOf(f.getString(1)), state, "job " + state).await().atMost(Db.WAIT);
            }
            return state;
        });
        if (settled != null) {
            changes.publish(StateChanged.job(job, settled, "job " + settled));
        }
    }

    @Override
    public Uni<Void> cancel(UUID jobId, List<Long> fileIds, String reason, Function<List<Long>, RuntimeException> unknown) {
        return pool.withTransaction(c -> c.preparedQuery("SELECT state, job_type = 'H', vo FROM job WHERE job_id = $1 FOR UPDATE").execute(Tuple.of(jobId))
                .chain(job -> c.preparedQuery("SELECT file_id, state FROM transfer_file WHERE job_id = $1 FOR UPDATE").execute(Tuple.of(jobId))
                        .chain(files -> {
                            JobState before = JobState.valueOf(job.iterator().next().getString(0));
                            boolean multihop = job.iterator().next().getBoolean(1);
                            List<Long> missing = fileIds == null ? new ArrayList<>() : new ArrayList<>(fileIds);
                            List<Long> canceled = new ArrayList<>();
                            Map<FileState, List<Long>> canceledFrom = new EnumMap<>(FileState.class);
                            Map<FileState, Long> counts = new EnumMap<>(FileState.class);
                            for (Row f : files) {
                                long id = f.getLong(0);
                                missing.remove(id);
                                FileState state = FileState.valueOf(f.getString(1));
                                if ((fileIds == null || fileIds.contains(id)) && !state.terminal()) {
                                    canceled.add(id);
                                    canceledFrom.computeIfAbsent(state, k -> new ArrayList<>()).add(id);
                                    state = FileState.CANCELED;
                                }
                                counts.merge(state, 1L, Long::sum);
                            }
                            if (!missing.isEmpty()) {
                                throw unknown.apply(missing);
                            }
                            // a directory job before its tree was listed (or one that failed listing) has no file to count
                            JobState after = !counts.isEmpty() ? JobStateRule.of(counts, multihop) : before.terminal() ? before : JobState.CANCELED;
                            Uni<Void> write = c.preparedQuery("UPDATE transfer_file SET state = $2, error_code = $3, reason = $4, finish_time = now() "
                                            + "WHERE file_id = ANY($1)")
                                    .execute(Tuple.of(canceled.toArray(Long[]::new), FileState.CANCELED.name(), MoverException.Code.CANCELED.name(), reason))
                                    .replaceWithVoid();
                            if (after != before) {
                                write = write.chain(x -> JobStateWrites.set(c, jobId, after, after == JobState.CANCELED ? reason : null).replaceWithVoid());
                            }
                            String vo = job.iterator().next().getString(2);
                            return write.chain(x -> events.publish(c, jobId, canceled, FileState.CANCELED, after, reason))
                                    .map(x -> canceledFrom.entrySet().stream().map(from -> StateChanged.files(jobId, from.getValue(),
                                            from.getKey(), FileState.CANCELED, after, reason, null, vo, null)).toList());
                        }))).invoke(done -> done.forEach(changes::publish)).replaceWithVoid();
    }

    @Override
    public Uni<Boolean> reprioritise(UUID jobId, int priority) {
        Tuple args = Tuple.of(jobId, priority);
        return pool.withTransaction(c -> c.preparedQuery("UPDATE job SET priority = $2 WHERE job_id = $1 AND state IN ("
                        + JobState.sql(JobState.OPEN) + ")").execute(args)
                .flatMap(updated -> updated.rowCount() == 0 ? Uni.createFrom().item(false)
                        : c.preparedQuery("UPDATE transfer_file SET priority = $2 WHERE job_id = $1 AND state IN ("
                                + FileState.sql(FileState.OPEN) + ")")
                        .execute(args).replaceWith(true)));
    }
}
