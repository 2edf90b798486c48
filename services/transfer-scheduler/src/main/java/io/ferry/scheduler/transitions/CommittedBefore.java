package io.ferry.scheduler.transitions;

import java.util.HashSet;
import java.util.Set;

/**
 * The transactions a PostgreSQL snapshot sees as committed ({@code pg_current_snapshot()}, text form
 * {@code xmin:xmax:xip,...}): a transaction id below {@code xmin} committed (or aborted) before the snapshot, one at
 * or above {@code xmax} had not started, one in between is seen unless it is listed as in progress.
 */
public record CommittedBefore(long xmin, long xmax, Set<Long> inProgress) {

    public static CommittedBefore parse(String snapshot) {
        String[] parts = snapshot.split(":", 3);
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a pg_snapshot: " + snapshot);
        }
        Set<Long> xip = new HashSet<>();
        if (!parts[2].isEmpty()) {
            for (String x : parts[2].split(",")) {
                xip.add(Long.parseLong(x));
            }
        }
        return new CommittedBefore(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Set.copyOf(xip));
    }

    /** Whether the transaction {@code xid} ({@code pg_current_xact_id()}) had committed when the snapshot was taken. */
    public boolean includes(long xid) {
        return xid < xmin || xid < xmax && !inProgress.contains(xid);
    }
}
