package io.ferry.scheduler.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Weighted fair share of free slots, as a user of a contended link sees it: a VO of weight w gets w/Σw of the slots
 * over time, what a claimant already holds counts against it, a claimant with nothing waiting gets nothing and leaves
 * its share to the others, and no slot is given that is not free or to work that is not there.
 */
class FairShareTest {

    static FairShare.Claimant claimant(String name, double weight, int held, int waiting) {
        return new FairShare.Claimant(name, weight, held, waiting);
    }

    @Test
    void freeSlotsOfAnIdleLinkAreSplitByWeight() {
        Map<String, Integer> given = FairShare.allocate(8, List.of(claimant("atlas", 3, 0, 100), claimant("cms", 1, 0, 100)));
        assertEquals(Map.of("atlas", 6, "cms", 2), given);
        given = FairShare.allocate(12, List.of(claimant("atlas", 3, 0, 100), claimant("cms", 2, 0, 100), claimant("lhcb", 1, 0, 100)));
        assertEquals(Map.of("atlas", 6, "cms", 4, "lhcb", 2), given);
    }

    @Test
    void whatAClaimantHoldsCountsAgainstItsShare() {
        // cms holds 4 of a 3:1 link of 8: the 4 freed slots all go to atlas, which is owed 6
        Map<String, Integer> given = FairShare.allocate(4, List.of(claimant("atlas", 3, 2, 100), claimant("cms", 1, 4, 100)));
        assertEquals(Map.of("atlas", 4), given);
        // and the other way round: atlas over its share leaves both freed slots to cms
        given = FairShare.allocate(2, List.of(claimant("atlas", 3, 6, 100), claimant("cms", 1, 0, 100)));
        assertEquals(Map.of("cms", 2), given);
    }

    @Test
    void aClaimantWithNothingWaitingGetsNothingAndItsShareGoesToTheOthers() {
        Map<String, Integer> given = FairShare.allocate(8, List.of(claimant("atlas", 3, 0, 0), claimant("cms", 1, 0, 100)));
        assertEquals(Map.of("cms", 8), given);
        assertFalse(given.containsKey("atlas"), "a claimant given nothing is not listed");
        // a claimant with less waiting than its share takes what it has; the rest goes on to the others
        given = FairShare.allocate(8, List.of(claimant("atlas", 3, 0, 2), claimant("cms", 1, 0, 100)));
        assertEquals(Map.of("atlas", 2, "cms", 6), given);
    }

    @Test
    void priorityOrQueueLengthDoNotBuyMoreThanTheWeight() {
        // cms has a thousand times more queued: the split is still by weight
        Map<String, Integer> given = FairShare.allocate(10, List.of(claimant("atlas", 1, 0, 10), claimant("cms", 1, 0, 10_000)));
        assertEquals(Map.of("atlas", 5, "cms", 5), given);
    }

    @Test
    void neverGivesMoreThanTheFreeSlotsOrTheWorkWaiting() {
        Random r = new Random(7);
        for (int round = 0; round < 500; round++) {
            int slots = r.nextInt(40) - 2;
            List<FairShare.Claimant> claimants = new ArrayList<>();
            int n = 1 + r.nextInt(6);
            for (int i = 0; i < n; i++) {
                claimants.add(claimant("vo" + i, r.nextInt(4) == 0 ? 0.5 + r.nextInt(3) : 1 + r.nextInt(1000), r.nextInt(20), r.nextInt(15)));
            }
            Map<String, Integer> given = FairShare.allocate(slots, claimants);
            int total = given.values().stream().mapToInt(Integer::intValue).sum();
            int waiting = claimants.stream().mapToInt(FairShare.Claimant::waiting).sum();
            assertEquals(Math.max(0, Math.min(slots, waiting)), total, "every free slot is used while work waits: " + claimants + " -> " + given);
            for (FairShare.Claimant c : claimants) {
                int g = given.getOrDefault(c.name(), 0);
                assertTrue(g <= c.waiting(), c + " got " + g);
                assertTrue(!given.containsKey(c.name()) || g > 0, "listed with nothing: " + given);
            }
        }
    }

    @Test
    void noSlotsOrNoClaimantsGiveNothing() {
        assertTrue(FairShare.allocate(0, List.of(claimant("atlas", 1, 0, 5))).isEmpty());
        assertTrue(FairShare.allocate(-3, List.of(claimant("atlas", 1, 0, 5))).isEmpty());
        assertTrue(FairShare.allocate(5, List.of()).isEmpty());
    }

    @Test
    void aZeroWeightIsTheSmallestWeightNotARefusal() {
        // alone it takes the whole link: a weight never leaves slots idle while work waits
        assertEquals(Map.of("ops", 5), FairShare.allocate(5, List.of(claimant("ops", 0, 0, 10))));
        // beside a weighted VO it holds at most one slot (it is not starved), the rest goes by weight
        Map<String, Integer> given = FairShare.allocate(6, List.of(claimant("atlas", 1, 0, 10), claimant("ops", 0, 0, 10)));
        assertEquals(6, given.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(given.getOrDefault("ops", 0) <= 1, "zero weight got " + given);
        assertEquals(Map.of("atlas", 4), FairShare.allocate(4, List.of(claimant("atlas", 1, 3, 10), claimant("ops", 0, 1, 10))));
    }

    /**
     * A contended link over many scheduling passes: each running transfer ends in a pass with probability 1/4, the
     * freed slots are shared out again; what the VOs started follows the weights.
     */
    @Test
    void twoVosThreeToOneGetThreeToOneOfTheLinkOverTime() {
        Map<String, Integer> started = simulate(8, Map.of("atlas", 3.0, "cms", 1.0), 2_000, 4, new Random(11));
        double ratio = started.get("atlas") / (double) started.get("cms");
        assertTrue(ratio > 2.8 && ratio < 3.2, "atlas:cms started " + started);
    }

    @Test
    void fewerSlotsThanVosStillServesEveryVo() {
        // two slots, three VOs of equal weight: whichever VO a freed slot goes to, none may wait forever
        Map<String, Integer> started = simulate(2, Map.of("atlas", 1.0, "cms", 1.0, "lhcb", 1.0), 3_000, 4, new Random(12));
        int total = started.values().stream().mapToInt(Integer::intValue).sum();
        for (String vo : List.of("atlas", "cms", "lhcb")) {
            assertTrue(started.getOrDefault(vo, 0) > total / 4, vo + " starved: " + started);
        }
    }

    @Test
    void oneSlotAtATimeStillFollowsTheWeights() {
        // every transfer ends before the next pass, so each pass sees nothing held: only the weights can decide
        Map<String, Integer> started = simulate(1, Map.of("atlas", 2.0, "cms", 1.0), 3_000, 1, new Random(13));
        double ratio = started.getOrDefault("atlas", 0) / (double) Math.max(1, started.getOrDefault("cms", 0));
        assertTrue(ratio > 1.8 && ratio < 2.2, "atlas:cms started " + started);
    }

    /**
     * Runs {@code passes} scheduling passes of a link with {@code capacity} slots and VOs that always have work; a
     * running transfer ends in a pass with probability 1/{@code endsOneIn}. {@code random} also breaks the
     * allocation's ties, so a run is repeatable.
     */
    static Map<String, Integer> simulate(int capacity, Map<String, Double> weights, int passes, int endsOneIn, Random random) {
        Map<String, Integer> running = new HashMap<>();
        Map<String, Integer> started = new HashMap<>();
        List<String> names = weights.keySet().stream().sorted().toList();
        for (int pass = 0; pass < passes; pass++) {
            for (String vo : names) {
                int still = 0;
                for (int i = 0; i < running.getOrDefault(vo, 0); i++) {
                    still += random.nextInt(endsOneIn) == 0 ? 0 : 1;
                }
                running.put(vo, still);
            }
            int free = capacity - running.values().stream().mapToInt(Integer::intValue).sum();
            List<FairShare.Claimant> claimants = names.stream().map(vo -> claimant(vo, weights.get(vo), running.getOrDefault(vo, 0), 1_000)).toList();
            FairShare.allocate(free, claimants, random).forEach((vo, n) -> {
                running.merge(vo, n, Integer::sum);
                started.merge(vo, n, Integer::sum);
            });
            assertTrue(running.values().stream().mapToInt(Integer::intValue).sum() <= capacity, "over capacity: " + running);
        }
        return started;
    }
}
