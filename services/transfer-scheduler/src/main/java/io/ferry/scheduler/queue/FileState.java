package io.ferry.scheduler.queue;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/** FTS3's file states, as stored in {@code transfer_file.state}. */
public enum FileState {
    /** queued, not prepared yet (also: back in the queue for another attempt) */
    SUBMITTED,
    /** a stage request is out; polled until the file is on disk */
    STAGING,
    /** prepared: source and destination checked, waiting for a transfer slot */
    READY,
    /** claimed by a replica and being moved */
    ACTIVE,
    FINISHED,
    FAILED,
    CANCELED,
    /**
     * copied to a tape SE for a job with {@code archive_timeout}: polled (Tape REST {@code archiveinfo}) until the
     * file is on tape (then FINISHED) or the timeout passed (FAILED). Counts as ACTIVE for the job's state.
     */
    ARCHIVING,
    /**
     * a multihop job's hop waiting for the hop before it to finish (then SUBMITTED); one whose chain broke before it
     * stays so. Does not count for the job's state.
     */
    NOT_USED;

    /** Still to do: the job is not over while one of its files is in one of these. */
    public static final Set<FileState> OPEN = EnumSet.of(SUBMITTED, STAGING, READY, ACTIVE, ARCHIVING);
    /** Attempted and over: what decides how the job ended. */
    public static final Set<FileState> DONE = EnumSet.of(FINISHED, FAILED, CANCELED);
    /** Never changes again. */
    public static final Set<FileState> TERMINAL = EnumSet.of(FINISHED, FAILED, CANCELED, NOT_USED);

    public boolean terminal() {
        return TERMINAL.contains(this);
    }

    /** The states as an SQL list for {@code state IN (…)}: queries name states through this type, not by hand. */
    public static String sql(Set<FileState> states) {
        return states.stream().map(s -> "'" + s.name() + "'").collect(Collectors.joining(", "));
    }
}
