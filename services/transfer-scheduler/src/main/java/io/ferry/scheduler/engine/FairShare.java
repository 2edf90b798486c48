package io.ferry.scheduler.engine;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

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
        return allocate(slots, claimants, ThreadLocalRandom.current());
    }

    /**
     * As {@link #allocate(int, List)}; {@code random} breaks ties between equally loaded claimants, in proportion to
     * their weights. A pass sees only what is held now, so with fewer slots than claimants a fixed tie order would
     * hand every freed slot to the same claimants pass after pass and starve the others for as long as they have work.
     */
    public static Map<String, Integer> allocate(int slots, List<Claimant> claimants, RandomGenerator random) {
        Map<String, Integer> given = new LinkedHashMap<>();
        int[] extra = new int[claimants.size()];
        for (int s = 0; s < slots; s++) {
            int best = -1;
            double bestLoad = Double.MAX_VALUE;
            double tiedWeight = 0;
            for (int i = 0; i < claimants.size(); i++) {
                Claimant c = claimants.get(i);
                if (extra[i] >= c.waiting()) {
                    continue;
                }
                double weight = Math.max(1e-9, c.weight());
                double load = (c.held() + extra[i]) / weight;
                if (load < bestLoad - 1e-12) {
                    best = i;
                    bestLoad = load;
                    tiedWeight = weight;
                } else if (Math.abs(load - bestLoad) <= 1e-12) {
                    // one pass over the tied claimants picks each with probability weight / (their total weight)
                    tiedWeight += weight;
                    if (random.nextDouble() * tiedWeight < weight) {
                        best = i;
                    }
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
