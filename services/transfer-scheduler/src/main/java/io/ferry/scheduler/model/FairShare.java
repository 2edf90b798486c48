package io.ferry.scheduler.model;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Weighted fair share of free slots: each next slot goes to the claimant with the lowest (held + given) / weight
 * that still has work waiting, so under contention a claimant of weight w converges to w/Σw of the slots however
 * much the others have queued or however high their priorities (priorities only order work inside a claimant).
 */
public final class FairShare {

    /** A VO (or an activity inside a VO): its weight, the slots it holds now and the work it has waiting. */
    public record Claimant(String name, double weight, int held, int waiting) {
    }

    private FairShare() {
    }

    /** How many of {@code slots} each claimant gets (only those that get at least one are listed). */
    public static Map<String, Integer> allocate(int slots, List<Claimant> claimants) {
        Map<String, Integer> given = new LinkedHashMap<>();
        int[] extra = new int[claimants.size()];
        for (int s = 0; s < slots; s++) {
            int best = -1;
            double bestLoad = Double.MAX_VALUE;
            for (int i = 0; i < claimants.size(); i++) {
                Claimant c = claimants.get(i);
                if (extra[i] >= c.waiting()) {
                    continue;
                }
                double load = (c.held() + extra[i]) / Math.max(1e-9, c.weight());
                // ties: the lighter weight-normalised claimant first, then the name, so the outcome is deterministic
                if (load < bestLoad - 1e-12 || (Math.abs(load - bestLoad) <= 1e-12 && best >= 0
                        && c.name().compareTo(claimants.get(best).name()) < 0)) {
                    best = i;
                    bestLoad = load;
                }
            }
            if (best < 0) {
                break;
            }
            extra[best]++;
            given.merge(claimants.get(best).name(), 1, Integer::sum);
        }
        return given;
    }
}
