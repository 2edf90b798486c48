package io.ferry.scheduler.transitions;

import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.QueueSnapshot;
import io.smallrye.mutiny.Uni;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * The transitions of files and jobs, each guarded by the claim it needs ({@link Guard}): how anything changes a file's
 * or a job's state. Every committed change is announced once, after its commit, as a
 * {@link io.ferry.scheduler.transitions.events.StateChanged} on the store's
 * {@link io.ferry.scheduler.transitions.events.StateEvents}. {@link StateChanges} is its PostgreSQL implementation.
 */
public interface StateStore {

    /** The files a claim started, and by job those whose ACTIVE event waits for their job's write ({@link #started}). */
    record Claim(List<ClaimedFile> files, Map<UUID, List<Long>> jobsToStart) {
    }

    /**
     * Source and destination checked: the file may start. From SUBMITTED this cannot change the job's state, so the
     * job row is not locked (prepares of one job run in parallel); from STAGING it can, and is.
     */
    boolean prepared(ClaimedFile f, SourceStat stat);

    /**
     * A stage request was accepted by the SE: poll it at {@code nextPoll} (the same instant for all files of a request,
     * so that one claim takes them together).
     */
    boolean staging(ClaimedFile f, String request, OffsetDateTime nextPoll);

    /**
     * A sync job's file found already at the destination ({@code params.sync_level}): FINISHED without a copy, no bytes
     * moved, {@code why} as its reason. No transfer record is written: no attempt ran, so nothing may count as a
     * transfer's throughput.
     */
    boolean alreadyThere(ClaimedFile f, String why);

    /** Not on disk yet: poll again at {@code nextPoll} (no event, nothing changed for users). */
    void stillStaging(ClaimedFile f, OffsetDateTime nextPoll);

    /** An ARCHIVING file is on tape: FINISHED. */
    boolean archived(ClaimedFile f);

    /** An ARCHIVING file will not reach tape (the SE says so, or archive_timeout passed): FAILED, phase ARCHIVING. */
    boolean archiveFailed(ClaimedFile f, MoverException.Code code, String reason);

    /**
     * The copy succeeded: FINISHED, with its record. Answers a {@link System#nanoTime} no earlier than the change's
     * commit.
     */
    long finished(ClaimedFile f, long bytes, int streams, double throughput, AttemptTimes t);

    /** The copy succeeded; {@code archive}: it goes ARCHIVING (polled until on tape) instead of FINISHED. */
    long finished(ClaimedFile f, long bytes, int streams, double throughput, AttemptTimes t, boolean archive);

    /**
     * A failed attempt: tried again after the job's retry_delay when the failure is recoverable and retries are left
     * (a lapsed lease always is: the file did nothing wrong), else FAILED. {@code attempt} is the attempt's number.
     */
    void failed(ClaimedFile f, Guard guard, int attempt, MoverException e, long bytes, Integer streams, AttemptTimes t);

    /**
     * The replica is shutting down and this copy would not finish within the drain grace: the file goes back to the
     * queue as if the attempt had not started (its number not counted, no retry used, no record), and the destination
     * it may have begun is this job's to replace. False when the file finished or was cancelled meanwhile.
     */
    boolean handedBack(ClaimedFile f, String reason);

    /**
     * The file cannot get its storage credential now (its token issuer did not answer): it waits {@code delay} and is
     * then taken up again as if this claim had not happened — no attempt used, no retry, no record. One being
     * prepared keeps its state (a stage request already made stays); one about to be moved goes back to the queue.
     */
    boolean deferred(ClaimedFile f, Guard guard, Duration delay, String reason);

    /** A running attempt stopped because its file was cancelled (the cancel already set the state): its record. */
    void canceledAttempt(ClaimedFile f, long bytes, Integer streams, AttemptTimes t, String why);

    /**
     * After a claim committed: the jobs of the claimed files are ACTIVE (a job with an ACTIVE file always is, by the
     * rule) and subscribers hear it. Only this one row of the job is touched.
     */
    void started(UUID jobId, List<Long> fileIds, String reason);

    /**
     * One scheduling pass: {@code work} runs holding the scheduling lock (one pass at a time across replicas), reads
     * the startable queues and claims from them through the {@link SchedulingPass} it is given; the claims commit
     * together when it returns. Answers what {@code work} answered.
     */
    <T> T schedulingPass(Function<SchedulingPass, T> work);

    /** What a scheduling pass may do while it holds the scheduling lock. */
    interface SchedulingPass {

        /** The queues with prepared files (within their pin) or active ones, with their counts. */
        List<QueueSnapshot> startable(Duration pin);

        /**
         * A claim of {@code n} prepared files of one queue ({@code transitions.FileQueue.transferClaim}), and in the
         * same statement the ACTIVE event of those whose job needs no write for it (it is past SUBMITTED and STAGING);
         * the others' jobs must change first: {@link StateStore#started} after the pass committed.
         */
        Claim claimStarted(QueueSnapshot q, int n, String owner, Duration lease, Duration pin, String reason);
    }

    /** Jobs not over although none of their files is open: their last change could not settle them (at most 500). */
    List<UUID> unsettledJobs();

    /**
     * Settles the job by the rule if its row can be had without waiting (else a later pass does); the final state is
     * announced on the job's last-changed file.
     */
    void settle(UUID job);

    /**
     * A user's cancel: every open file of the job among {@code fileIds} (all of them when null) becomes CANCELED, the
     * job's state follows by the rule (a finished job is left as it is), and every replica hears it (the one moving a
     * cancelled file stops the copy). The job row is locked first, then its files: the engine's changes take them so
     * that a cancel and a finishing transfer of the same job wait for each other instead of overwriting each other.
     * Asks {@code unknown} for the failure to raise when some of {@code fileIds} are not the job's (nothing changes).
     */
    Uni<Void> cancel(UUID jobId, List<Long> fileIds, String reason, Function<List<Long>, RuntimeException> unknown);

    /**
     * FTS3's priority change: the job's and its unfinished files' (the queues order by the files' own), in one
     * transaction; false, and nothing changed, when the job is over.
     */
    Uni<Boolean> reprioritise(UUID jobId, int priority);
}
