package io.ferry.scheduler.queue;

import io.ferry.scheduler.transitions.JobStateRule;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** FTS3's job states, as stored in {@code job.state}; {@link JobStateRule} derives them from the files'. */
public enum JobState {
    SUBMITTED,
    STAGING,
    ACTIVE,
    FINISHED,
    FAILED,
    FINISHEDDIRTY,
    CANCELED;

    /** Over: the job's state never changes again. */
    public static final Set<JobState> TERMINAL = EnumSet.of(FINISHED, FAILED, FINISHEDDIRTY, CANCELED);
    /** Not over yet. */
    public static final Set<JobState> OPEN = EnumSet.complementOf(EnumSet.copyOf(TERMINAL));
    /** Every state's name, for validating queries such as {@code state_in}. */
    public static final List<String> NAMES = Arrays.stream(values()).map(Enum::name).toList();

    public boolean terminal() {
        return TERMINAL.contains(this);
    }

    /** The states as an SQL list for {@code state IN (…)}. */
    public static String sql(Set<JobState> states) {
        return states.stream().map(s -> "'" + s.name() + "'").collect(Collectors.joining(", "));
    }
}
