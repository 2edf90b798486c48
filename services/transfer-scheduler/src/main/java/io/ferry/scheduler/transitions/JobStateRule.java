package io.ferry.scheduler.transitions;

import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.JobState;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;

/**
 * FTS3's rule that derives a job's state from its files' — the only definition of it: SQL gathers the facts (which
 * states are present, or how many files are in each), this class decides.
 * <p>
 * While any file is still to do ({@link FileState#OPEN}), the job is ACTIVE once one file is (being copied or
 * archived), STAGING while files
 * stage, ACTIVE once any file is done, else SUBMITTED. When all are done: all finished FINISHED; some finished
 * FINISHEDDIRTY; none finished and only cancellations CANCELED; otherwise FAILED. NOT_USED files (hops that never
 * got their turn) do not count; a job with no counted file is FINISHED.
 * <p>
 * A multihop job (FTS3's job type {@code H}) is one chain: it is FINISHED only when every hop finished; a chain broken
 * by a failed hop is FAILED, one broken by a cancel only CANCELED, whatever hops finished before the break.
 */
public final class JobStateRule {

    private JobStateRule() {
    }

    /**
     * The job's state while it has open files. It depends only on which states are present, never on how many files
     * are in them — so the engine asks the database one cheap question per argument, whatever the job's size.
     */
    public static JobState whileOpen(boolean anyActive, boolean anyStaging, boolean anyDone) {
        return anyActive ? JobState.ACTIVE : anyStaging ? JobState.STAGING : anyDone ? JobState.ACTIVE : JobState.SUBMITTED;
    }

    /** The job's final state once no file is open. */
    public static JobState whenClosed(long finished, long failed, long canceled) {
        if (failed + canceled == 0) {
            return JobState.FINISHED;
        }
        if (finished > 0) {
            return JobState.FINISHEDDIRTY;
        }
        return failed == 0 ? JobState.CANCELED : JobState.FAILED;
    }

    /** A multihop job's final state once no hop is open. */
    public static JobState whenClosed(long finished, long failed, long canceled, boolean multihop) {
        if (!multihop || failed + canceled == 0) {
            return whenClosed(finished, failed, canceled);
        }
        return failed == 0 ? JobState.CANCELED : JobState.FAILED;
    }

    /** The job's state from how many of its files are in each state. */
    public static JobState of(Map<FileState, Long> counts) {
        return of(counts, false);
    }

    /** The job's state from how many of its files are in each state; {@code multihop}: the files are hops of one chain. */
    public static JobState of(Map<FileState, Long> counts, boolean multihop) {
        if (FileState.OPEN.stream().anyMatch(s -> counts.getOrDefault(s, 0L) > 0)) {
            return whileOpen(counts.getOrDefault(FileState.ACTIVE, 0L) + counts.getOrDefault(FileState.ARCHIVING, 0L) > 0, counts.getOrDefault(FileState.STAGING, 0L) > 0,
                    FileState.DONE.stream().anyMatch(s -> counts.getOrDefault(s, 0L) > 0));
        }
        return whenClosed(counts.getOrDefault(FileState.FINISHED, 0L), counts.getOrDefault(FileState.FAILED, 0L),
                counts.getOrDefault(FileState.CANCELED, 0L), multihop);
    }

    /** The job's state from its files' states. */
    public static JobState of(Collection<FileState> fileStates) {
        Map<FileState, Long> counts = new EnumMap<>(FileState.class);
        fileStates.forEach(s -> counts.merge(s, 1L, Long::sum));
        return of(counts);
    }
}
