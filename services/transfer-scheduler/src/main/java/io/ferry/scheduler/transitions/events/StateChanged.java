package io.ferry.scheduler.transitions.events;

import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;

import java.util.List;
import java.util.UUID;

/**
 * One committed change of files of one job, or of the job alone, as the state store announces it after the commit
 * ({@link StateEvents}): wake-ups and counters follow it, never the store calling them.
 *
 * @param jobId    the job
 * @param fileIds  the files that changed together, from {@code from} to {@code to}; empty for a change of the job alone
 * @param from     the files' state before (null for a change of the job alone)
 * @param to       the files' state after (null for a change of the job alone); equal to {@code from} when only an
 *                 attempt's outcome was recorded (a cancelled file's stopped copy)
 * @param job      the job's state after the change, or null when the change did not read it
 * @param reason   why, as subscribers of the job's events read it
 * @param link     the files' link, or null when the change concerns files of more than one
 * @param vo       the job's VO, or null when the change did not read it
 * @param attempt  the attempt the change ended, or null when it ended none
 */
public record StateChanged(UUID jobId, List<Long> fileIds, FileState from, FileState to, JobState job, String reason,
                           Link link, String vo, Attempt attempt) {

    public StateChanged {
        fileIds = List.copyOf(fileIds);
    }

    /** The source and destination SE of the files. */
    public record Link(String sourceSe, String destSe) {
    }

    /** Why another replica took the file back. */
    public enum TakenBack {
        /** its replica's lease lapsed */
        LEASE_LAPSED,
        /** its replica stopped beating */
        REPLICA_DEAD
    }

    /**
     * An attempt that ended with this change: its outcome (FINISHED, FAILED or CANCELED), error code ({@code null}
     * when none), bytes moved, and whether another replica took the file back ({@code null} when not).
     */
    public record Attempt(FileState outcome, String errorCode, long bytes, TakenBack takenBack) {
    }

    /** A change of files. */
    public static StateChanged files(UUID jobId, List<Long> fileIds, FileState from, FileState to, JobState job, String reason,
                                     Link link, String vo, Attempt attempt) {
        return new StateChanged(jobId, fileIds, from, to, job, reason, link, vo, attempt);
    }

    /** A change of the job alone (settled by the rule, or made ACTIVE after its files' claim). */
    public static StateChanged job(UUID jobId, JobState job, String reason) {
        return new StateChanged(jobId, List.of(), null, null, job, reason, null, null, null);
    }

    /** Whether files changed state (not only an attempt recorded, not the job alone). */
    public boolean filesMoved() {
        return to != null && from != to;
    }

    /** Whether the files reached a state that ends them (FINISHED, FAILED, CANCELED) with this change. */
    public boolean filesEnded() {
        return filesMoved() && FileState.DONE.contains(to);
    }
}
