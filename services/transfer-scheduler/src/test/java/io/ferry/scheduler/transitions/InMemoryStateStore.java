package io.ferry.scheduler.transitions;

import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.queue.QueueSnapshot;
import io.ferry.scheduler.transitions.events.StateChanged;
import io.ferry.scheduler.transitions.events.StateEvents;
import io.smallrye.mutiny.Uni;
import io.vertx.core.json.JsonArray;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;

/**
 * {@link StateStore} in memory, for fast tests of the transitions' rules: the same guards, {@link JobStateRule},
 * {@link RetryPolicy}, next source and multihop semantics as {@link StateChanges}, without a database. Leases do not
 * time out here (a {@link Guard#LEASE_LAPSED} change applies to any running file of the claim). One lock serialises
 * every change, as the row locks do in PostgreSQL; each change is announced on its {@link StateEvents} after it applied.
 */
public class InMemoryStateStore implements StateStore {

    /** A file of a submission: its source and destination with their SEs, and the further sources to try. */
    public record FileSpec(String source, String dest, String sourceSe, String destSe, List<String> alternatives) {
        public FileSpec(String source, String dest, String sourceSe, String destSe) {
            this(source, dest, sourceSe, destSe, List.of());
        }
    }

    private static final class JobRow {
        UUID id;
        JobState state = JobState.SUBMITTED;
        boolean multihop;
        String vo;
        int retry;
        int retryDelay;
        int priority = 3;
        String reason;
    }

    private static final class FileRow {
        long id;
        UUID job;
        int index;
        FileState state;
        String sourceUrl;
        String destUrl;
        String sourceSe;
        String destSe;
        List<String> alternatives;
        int attempts;
        String owner;
        long epoch;
        String reason;
        String errorCode;
        int priority = 3;
        final List<String> retries = new ArrayList<>();
    }

    /** The states {@link Guard#QUEUED} takes. */
    private static final Set<FileState> QUEUED = EnumSet.of(FileState.SUBMITTED, FileState.STAGING, FileState.READY);

    private final StateEvents events;
    private final String replica;
    private final Function<String, String> seOf;
    private final Map<UUID, JobRow> jobs = new LinkedHashMap<>();
    private final Map<Long, FileRow> files = new TreeMap<>();
    private long nextFileId = 1;

    /**
     * @param events  where changes are announced
     * @param replica this replica's id (the claims' owner)
     * @param seOf    the SE of a source URL, or null when none is registered for it (next source)
     */
    public InMemoryStateStore(StateEvents events, String replica, Function<String, String> seOf) {
        this.events = events;
        this.replica = replica;
        this.seOf = seOf;
    }

    // --- what the database holds, for tests ---

    /** Stores a job (FTS3's job type H when {@code multihop}: the files are hops of one chain, in order). */
    public synchronized UUID submit(String vo, int retry, boolean multihop, List<FileSpec> specs) {
        JobRow j = new JobRow();
        j.id = UUID.randomUUID();
        j.vo = vo;
        j.retry = retry;
        j.multihop = multihop;
        jobs.put(j.id, j);
        for (int i = 0; i < specs.size(); i++) {
            FileSpec s = specs.get(i);
            FileRow f = new FileRow();
            f.id = nextFileId++;
            f.job = j.id;
            f.index = i;
            f.state = multihop && i > 0 ? FileState.NOT_USED : FileState.SUBMITTED;
            f.sourceUrl = s.source();
            f.destUrl = s.dest();
            f.sourceSe = s.sourceSe();
            f.destSe = s.destSe();
            f.alternatives = List.copyOf(s.alternatives());
            files.put(f.id, f);
        }
        return j.id;
    }

    /** The job's files in submission order. */
    public synchronized List<Long> files(UUID job) {
        return files.values().stream().filter(f -> f.job.equals(job)).sorted(Comparator.comparingInt(f -> f.index)).map(f -> f.id).toList();
    }

    public synchronized FileState fileState(long id) {
        return files.get(id).state;
    }

    public synchronized JobState jobState(UUID job) {
        return jobs.get(job).state;
    }

    public synchronized int attempts(long id) {
        return files.get(id).attempts;
    }

    public synchronized String sourceUrl(long id) {
        return files.get(id).sourceUrl;
    }

    public synchronized String reason(long id) {
        return files.get(id).reason;
    }

    /** The failures kept in the file's retry history, oldest first. */
    public synchronized List<String> retries(long id) {
        return List.copyOf(files.get(id).retries);
    }

    /** A prepare claim of a queued file (FileQueue.claimForPrepare): leased to this replica under a new epoch. */
    public synchronized ClaimedFile claimForPrepare(long id) {
        FileRow f = files.get(id);
        if (f.state != FileState.SUBMITTED && f.state != FileState.STAGING || f.owner != null) {
            throw new IllegalStateException("file " + id + " is " + f.state + (f.owner == null ? "" : ", claimed"));
        }
        f.epoch++;
        f.owner = replica;
        return claimed(f);
    }

    // --- the store ---

    @Override
    public boolean prepared(ClaimedFile f, SourceStat stat) {
        return change(f, Guard.PREPARING, FileState.READY, "prepared", null, r -> {
            if (f.state() == FileState.SUBMITTED && r.state != FileState.SUBMITTED) {
                return false;
            }
            r.owner = null;
            return true;
        });
    }

    @Override
    public boolean alreadyThere(ClaimedFile f, String why) {
        return change(f, Guard.PREPARING, FileState.FINISHED, why, null, r -> {
            r.reason = why;
            r.owner = null;
            return true;
        });
    }

    @Override
    public boolean staging(ClaimedFile f, String request, OffsetDateTime nextPoll) {
        return change(f, Guard.PREPARING, FileState.STAGING, "stage request " + request, null, r -> {
            r.owner = null;
            return true;
        });
    }

    @Override
    public synchronized void stillStaging(ClaimedFile f, OffsetDateTime nextPoll) {
        FileRow r = files.get(f.fileId());
        if (r.state == FileState.STAGING && replica.equals(r.owner) && r.epoch == f.claimEpoch()) {
            r.owner = null;
        }
    }

    @Override
    public boolean archived(ClaimedFile f) {
        return change(f, Guard.ARCHIVING, FileState.FINISHED, "on tape", null, r -> true);
    }

    @Override
    public boolean archiveFailed(ClaimedFile f, MoverException.Code code, String reason) {
        return change(f, Guard.ARCHIVING, FileState.FAILED, reason, null, r -> {
            r.reason = reason;
            r.errorCode = code.name();
            return true;
        });
    }

    @Override
    public long finished(ClaimedFile f, long bytes, int streams, double throughput, AttemptTimes t) {
        return finished(f, bytes, streams, throughput, t, false);
    }

    @Override
    public long finished(ClaimedFile f, long bytes, int streams, double throughput, AttemptTimes t, boolean archive) {
        FileState to = archive ? FileState.ARCHIVING : FileState.FINISHED;
        change(f, Guard.RUNNING, to, archive ? "copied; archiving" : "finished", new StateChanged.Attempt(FileState.FINISHED, null, bytes, null), r -> {
            r.owner = null;
            r.reason = null;
            r.errorCode = null;
            if (!archive) {
                // a multihop job's next hop may start once this one finished
                files.values().stream().filter(n -> n.job.equals(r.job) && n.index == r.index + 1 && n.state == FileState.NOT_USED)
                        .forEach(n -> n.state = FileState.SUBMITTED);
            }
            return true;
        });
        return System.nanoTime();
    }

    @Override
    public void failed(ClaimedFile f, Guard guard, int attempt, MoverException e, long bytes, Integer streams, AttemptTimes t) {
        boolean lapsed = e.code() == MoverException.Code.LEASE_EXPIRED;
        boolean again = lapsed || RetryPolicy.retry(e.retryable(), attempt, f.retry());
        StateChanged.Attempt ended = new StateChanged.Attempt(e.code() == MoverException.Code.CANCELED ? FileState.CANCELED : FileState.FAILED,
                e.code().name(), bytes, guard == Guard.ABANDONED ? StateChanged.TakenBack.REPLICA_DEAD
                : guard == Guard.LEASE_LAPSED ? StateChanged.TakenBack.LEASE_LAPSED : null);
        if (!again && !StateChanges.NOT_THE_SOURCES_FAULT.contains(e.code()) && !f.alternativeSources().isEmpty()) {
            List<String> alternatives = f.alternativeSources();
            String nextSe = seOf.apply(alternatives.get(0));
            if (nextSe != null) {
                String why = e.getMessage() + "; trying the next source " + alternatives.get(0);
                if (change(f, guard, FileState.SUBMITTED, e.code() + ": " + why, ended, r -> {
                    r.sourceUrl = alternatives.get(0);
                    r.sourceSe = nextSe;
                    r.alternatives = List.copyOf(alternatives.subList(1, alternatives.size()));
                    failure(r, attempt, why, e);
                    return true;
                })) {
                    return;
                }
            }
        }
        String reason = e.code() + ": " + e.getMessage() + (again ? " (attempt " + attempt + "; will be retried)" : "");
        change(f, guard, again ? FileState.SUBMITTED : FileState.FAILED, reason, ended, r -> {
            failure(r, again ? attempt : -1, e.getMessage(), e);
            r.attempts = attempt;
            return true;
        });
    }

    /** The failure on the file, and in its retry history unless {@code attempt} is negative. */
    private static void failure(FileRow r, int attempt, String why, MoverException e) {
        r.reason = why;
        r.errorCode = e.code().name();
        r.owner = null;
        if (attempt >= 0) {
            r.attempts = attempt;
            r.retries.add(attempt + " " + e.code() + ": " + why);
        }
    }

    @Override
    public boolean handedBack(ClaimedFile f, String reason) {
        return change(f, Guard.RUNNING, FileState.SUBMITTED, reason, null, r -> {
            r.attempts = Math.max(r.attempts - 1, 0);
            r.owner = null;
            return true;
        });
    }

    @Override
    public boolean deferred(ClaimedFile f, Guard guard, Duration delay, String reason) {
        return change(f, guard, guard == Guard.RUNNING ? FileState.SUBMITTED : f.state(), reason, null, r -> {
            if (guard == Guard.RUNNING) {
                r.attempts = Math.max(r.attempts - 1, 0);
            }
            r.reason = reason;
            r.owner = null;
            return true;
        });
    }

    @Override
    public void canceledAttempt(ClaimedFile f, long bytes, Integer streams, AttemptTimes t, String why) {
        events.publish(StateChanged.files(f.jobId(), List.of(f.fileId()), FileState.CANCELED, FileState.CANCELED, null, why,
                new StateChanged.Link(f.sourceSe(), f.destSe()), f.vo(), new StateChanged.Attempt(FileState.CANCELED,
                        MoverException.Code.CANCELED.name(), bytes, null)));
    }

    @Override
    public void started(UUID jobId, List<Long> fileIds, String reason) {
        JobState active = JobStateRule.whileOpen(true, false, false);
        synchronized (this) {
            JobRow j = jobs.get(jobId);
            if (j.state != JobState.SUBMITTED && j.state != JobState.STAGING) {
                return;
            }
            j.state = active;
        }
        events.publish(StateChanged.job(jobId, active, reason));
    }

    @Override
    public <T> T schedulingPass(Function<SchedulingPass, T> work) {
        List<StateChanged> claimed = new ArrayList<>();
        T result;
        synchronized (this) {
            result = work.apply(new SchedulingPass() {
                @Override
                public List<QueueSnapshot> startable(Duration pin) {
                    Map<List<String>, int[]> counts = new LinkedHashMap<>();
                    for (FileRow f : files.values()) {
                        if (f.state == FileState.READY || f.state == FileState.ACTIVE) {
                            int[] c = counts.computeIfAbsent(List.of(f.sourceSe, f.destSe, jobs.get(f.job).vo, "default"), k -> new int[2]);
                            c[f.state == FileState.READY ? 0 : 1]++;
                        }
                    }
                    List<QueueSnapshot> out = new ArrayList<>();
                    counts.forEach((q, c) -> out.add(new QueueSnapshot(q.get(0), q.get(1), q.get(2), q.get(3), 0, 0, c[0], c[1], 0)));
                    return out;
                }

                @Override
                public Claim claimStarted(QueueSnapshot q, int n, String owner, Duration lease, Duration pin, String reason) {
                    List<ClaimedFile> out = new ArrayList<>();
                    Map<UUID, List<Long>> jobsToStart = new LinkedHashMap<>();
                    Map<UUID, List<Long>> byJob = new LinkedHashMap<>();
                    files.values().stream()
                            .filter(f -> f.state == FileState.READY && f.sourceSe.equals(q.sourceSe()) && f.destSe.equals(q.destSe())
                                    && jobs.get(f.job).vo.equals(q.vo()))
                            .sorted(Comparator.comparingInt((FileRow f) -> -f.priority).thenComparingLong(f -> f.id))
                            .limit(n).forEach(f -> {
                                f.state = FileState.ACTIVE;
                                f.owner = owner;
                                f.epoch++;
                                f.attempts++;
                                out.add(claimed(f));
                                byJob.computeIfAbsent(f.job, k -> new ArrayList<>()).add(f.id);
                                JobState job = jobs.get(f.job).state;
                                if (job == JobState.SUBMITTED || job == JobState.STAGING) {
                                    jobsToStart.computeIfAbsent(f.job, k -> new ArrayList<>()).add(f.id);
                                }
                            });
                    byJob.forEach((job, ids) -> claimed.add(StateChanged.files(job, ids, FileState.READY, FileState.ACTIVE, null, reason,
                            new StateChanged.Link(q.sourceSe(), q.destSe()), q.vo(), null)));
                    return new Claim(out, jobsToStart);
                }
            });
        }
        claimed.forEach(events::publish);
        return result;
    }

    @Override
    public synchronized List<UUID> unsettledJobs() {
        return jobs.values().stream().filter(j -> !j.state.terminal())
                .filter(j -> files.values().stream().noneMatch(f -> f.job.equals(j.id) && FileState.OPEN.contains(f.state)))
                .map(j -> j.id).limit(500).toList();
    }

    @Override
    public void settle(UUID job) {
        JobState state;
        synchronized (this) {
            state = refresh(jobs.get(job));
        }
        events.publish(StateChanged.job(job, state, "job " + state));
    }

    @Override
    public Uni<Void> cancel(UUID jobId, List<Long> fileIds, String reason, Function<List<Long>, RuntimeException> unknown) {
        return Uni.createFrom().item(() -> {
            List<StateChanged> changes = new ArrayList<>();
            synchronized (this) {
                JobRow j = jobs.get(jobId);
                List<FileRow> ofJob = files.values().stream().filter(f -> f.job.equals(jobId)).toList();
                List<Long> missing = fileIds == null ? new ArrayList<>() : new ArrayList<>(fileIds);
                ofJob.forEach(f -> missing.remove(f.id));
                if (!missing.isEmpty()) {
                    throw unknown.apply(missing);
                }
                Map<FileState, List<Long>> canceledFrom = new EnumMap<>(FileState.class);
                for (FileRow f : ofJob) {
                    if ((fileIds == null || fileIds.contains(f.id)) && !f.state.terminal()) {
                        canceledFrom.computeIfAbsent(f.state, k -> new ArrayList<>()).add(f.id);
                        f.state = FileState.CANCELED;
                        f.errorCode = MoverException.Code.CANCELED.name();
                        f.reason = reason;
                    }
                }
                JobState after = JobStateRule.of(counts(jobId), j.multihop);
                if (after != j.state) {
                    j.state = after;
                    if (after == JobState.CANCELED) {
                        j.reason = reason;
                    }
                }
                canceledFrom.forEach((from, ids) -> changes.add(StateChanged.files(jobId, ids, from, FileState.CANCELED, after, reason,
                        null, j.vo, null)));
            }
            changes.forEach(events::publish);
            return null;
        });
    }

    @Override
    public synchronized Uni<Boolean> reprioritise(UUID jobId, int priority) {
        JobRow j = jobs.get(jobId);
        if (j.state.terminal()) {
            return Uni.createFrom().item(false);
        }
        j.priority = priority;
        files.values().stream().filter(f -> f.job.equals(jobId) && FileState.OPEN.contains(f.state)).forEach(f -> f.priority = priority);
        return Uni.createFrom().item(true);
    }

    // --- the rules ---

    private interface Apply {
        /** Applies the change to the guarded row; false refuses it (nothing changed). */
        boolean to(FileRow r);
    }

    /** The guarded change of one file, the job's state after it by the rule, then the announcement. */
    private boolean change(ClaimedFile f, Guard guard, FileState to, String reason, StateChanged.Attempt attempt, Apply apply) {
        JobState job;
        synchronized (this) {
            FileRow r = files.get(f.fileId());
            if (r == null || !guarded(r, guard, f.claimEpoch()) || !apply.to(r)) {
                return false;
            }
            r.state = to;
            job = afterFileChange(jobs.get(r.job));
        }
        events.publish(StateChanged.files(f.jobId(), List.of(f.fileId()), f.state(), to, job, reason,
                new StateChanged.Link(f.sourceSe(), f.destSe()), f.vo(), attempt));
        return true;
    }

    /** {@link Guard}'s conditions on the row. */
    private boolean guarded(FileRow r, Guard guard, long epoch) {
        return switch (guard) {
            case PREPARING -> (r.state == FileState.SUBMITTED || r.state == FileState.STAGING) && replica.equals(r.owner) && r.epoch == epoch;
            case RUNNING -> r.state == FileState.ACTIVE && replica.equals(r.owner) && r.epoch == epoch;
            case LEASE_LAPSED, ABANDONED -> r.state == FileState.ACTIVE && r.epoch == epoch;
            case QUEUED -> QUEUED.contains(r.state);
            case ARCHIVING -> r.state == FileState.ARCHIVING;
        };
    }

    /** JobStateWrites.afterFileChange: a job over stays so; else the rule, final once no file is open. */
    private JobState afterFileChange(JobRow j) {
        return j.state.terminal() ? j.state : refresh(j);
    }

    private JobState refresh(JobRow j) {
        j.state = JobStateRule.of(counts(j.id), j.multihop);
        return j.state;
    }

    private Map<FileState, Long> counts(UUID job) {
        Map<FileState, Long> counts = new EnumMap<>(FileState.class);
        files.values().stream().filter(f -> f.job.equals(job)).forEach(f -> counts.merge(f.state, 1L, Long::sum));
        return counts;
    }

    private ClaimedFile claimed(FileRow f) {
        JobRow j = jobs.get(f.job);
        String alternatives = f.alternatives.isEmpty() ? null : new JsonArray(f.alternatives).encode();
        boolean intermediateHop = j.multihop && files.values().stream().anyMatch(n -> n.job.equals(f.job) && n.index == f.index + 1);
        return new ClaimedFile(f.id, f.job, f.attempts, j.vo, "default", f.sourceUrl, f.destUrl, f.sourceSe, f.destSe, null, null, f.state,
                OffsetDateTime.now(), null, null, null, null, false, false, null, intermediateHop, j.retry, j.retryDelay, null, null,
                alternatives, f.epoch, false, null);
    }
}
