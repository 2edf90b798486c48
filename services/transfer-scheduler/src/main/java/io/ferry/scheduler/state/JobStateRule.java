package io.ferry.scheduler.state;

import java.util.Collection;
import java.util.Set;

/** FTS3's job and file states and the rule that derives a job's state from its files'. */
public final class JobStateRule {

    public static final Set<String> FILE_TERMINAL = Set.of("FINISHED", "FAILED", "CANCELED", "NOT_USED");
    public static final Set<String> JOB_TERMINAL = Set.of("FINISHED", "FAILED", "FINISHEDDIRTY", "CANCELED");
    public static final Set<String> JOB_STATES = Set.of("SUBMITTED", "STAGING", "ACTIVE", "FINISHED", "FAILED", "FINISHEDDIRTY", "CANCELED");

    private JobStateRule() {
    }

    /**
     * While any file is still to do, the job is ACTIVE once one file is, STAGING while files stage, else SUBMITTED.
     * When all are done: all finished FINISHED; some finished FINISHEDDIRTY; none finished and only cancellations
     * CANCELED; otherwise FAILED. NOT_USED files (alternatives not needed) do not count.
     */
    public static String jobState(Collection<String> fileStates) {
        long finished = 0;
        long failed = 0;
        long canceled = 0;
        long counted = 0;
        boolean active = false;
        boolean staging = false;
        boolean open = false;
        for (String s : fileStates) {
            switch (s) {
                case "NOT_USED" -> {
                    continue;
                }
                case "FINISHED" -> finished++;
                case "FAILED" -> failed++;
                case "CANCELED" -> canceled++;
                case "ACTIVE", "READY" -> {
                    active |= s.equals("ACTIVE");
                    open = true;
                }
                case "STAGING" -> {
                    staging = true;
                    open = true;
                }
                default -> open = true;
            }
            counted++;
        }
        if (open) {
            return active ? "ACTIVE" : staging ? "STAGING" : finished + failed + canceled > 0 ? "ACTIVE" : "SUBMITTED";
        }
        if (counted == 0) {
            return "FINISHED";
        }
        if (finished == counted) {
            return "FINISHED";
        }
        if (finished > 0) {
            return "FINISHEDDIRTY";
        }
        return failed == 0 && canceled > 0 ? "CANCELED" : "FAILED";
    }
}
