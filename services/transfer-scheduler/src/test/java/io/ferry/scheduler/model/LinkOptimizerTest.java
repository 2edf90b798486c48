package io.ferry.scheduler.model;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The optimizer against links whose capacity the test sets: each transfer gets {@code perTransfer} bytes/s until the
 * link's capacity is reached (plus measurement noise). It must climb to the knee, settle there instead of
 * oscillating, back off when transfers fail, and follow a capacity change.
 */
class LinkOptimizerTest {

    static final LinkOptimizer.Params PARAMS = new LinkOptimizer.Params(0.5, 0.9, 0.05, 10);

    /** A link where n transfers move min(n × perTransfer, capacity) bytes/s, with ±2% noise. */
    record SimulatedLink(double perTransfer, double capacity, Random noise) {
        LinkOptimizer.Observation observe(int active, double successRate) {
            double rate = Math.min(active * perTransfer, capacity) * (1 + (noise.nextDouble() - 0.5) * 0.04);
            return new LinkOptimizer.Observation(rate, successRate, 50, active, 500);
        }
    }

    static List<Integer> run(SimulatedLink link, int rounds, int min, int max, double successRate) {
        LinkOptimizer.State s = LinkOptimizer.State.initial(min);
        List<Integer> targets = new ArrayList<>();
        for (int i = 0; i < rounds; i++) {
            LinkOptimizer.Decision d = LinkOptimizer.decide(s, link.observe(s.target(), successRate), min, max, PARAMS);
            assertTrue(d.rationale() != null && !d.rationale().isBlank());
            s = d.next();
            targets.add(s.target());
        }
        return targets;
    }

    @Test
    void climbsToTheKneeAndSettlesThere() {
        // 10 MB/s per transfer, 80 MB/s link: 8 transfers fill it
        List<Integer> targets = run(new SimulatedLink(10e6, 80e6, new Random(1)), 120, 2, 60, 1.0);
        List<Integer> late = targets.subList(40, 120);
        long atKnee = late.stream().filter(t -> t == 8).count();
        assertTrue(late.stream().allMatch(t -> t >= 7 && t <= 9), "strayed from the knee: " + late);
        // one probe step up every holdRounds rounds at most: at the knee at least 80% of the time
        assertTrue(atKnee >= 0.8 * late.size(), "at the knee only " + atKnee + " of " + late.size() + " rounds: " + late);
        long changes = 0;
        for (int i = 1; i < late.size(); i++) {
            changes += late.get(i).equals(late.get(i - 1)) ? 0 : 1;
        }
        assertTrue(changes <= 2 * late.size() / (PARAMS.holdRounds() + 1) + 2, changes + " changes in " + late.size() + " rounds: " + late);
    }

    @Test
    void staysWithinTheLinksBounds() {
        List<Integer> targets = run(new SimulatedLink(10e6, 1e12, new Random(2)), 80, 3, 12, 1.0);
        assertTrue(targets.stream().allMatch(t -> t >= 3 && t <= 12));
        assertEquals(12, targets.get(targets.size() - 1));
    }

    @Test
    void backsOffWhileTransfersFail() {
        LinkOptimizer.State s = new LinkOptimizer.State(10, 50e6, 10, 50e6, 0);
        for (int i = 0; i < 5; i++) {
            LinkOptimizer.Decision d = LinkOptimizer.decide(s, new LinkOptimizer.Observation(50e6, 0.6, 40, s.target(), 100), 2, 60, PARAMS);
            assertTrue(d.rationale().contains("success rate 60%"), d.rationale());
            s = d.next();
        }
        assertEquals(5, s.target());
    }

    @Test
    void followsACapacityIncrease() {
        SimulatedLink before = new SimulatedLink(10e6, 40e6, new Random(3));
        LinkOptimizer.State s = LinkOptimizer.State.initial(2);
        for (int i = 0; i < 40; i++) {
            s = LinkOptimizer.decide(s, before.observe(s.target(), 1.0), 2, 60, PARAMS).next();
        }
        assertTrue(s.target() >= 4 && s.target() <= 5, "settled at " + s.target());
        SimulatedLink after = new SimulatedLink(10e6, 120e6, new Random(4));
        for (int i = 0; i < 150; i++) {
            s = LinkOptimizer.decide(s, after.observe(s.target(), 1.0), 2, 60, PARAMS).next();
        }
        assertTrue(s.target() >= 11 && s.target() <= 13, "after the upgrade settled at " + s.target());
    }

    @Test
    void anIdleOrUnderusedLinkKeepsItsTarget() {
        LinkOptimizer.State s = new LinkOptimizer.State(6, 30e6, 6, 30e6, 0);
        LinkOptimizer.Decision idle = LinkOptimizer.decide(s, new LinkOptimizer.Observation(0, null, 0, 0, 0), 2, 60, PARAMS);
        assertEquals(6, idle.next().target());
        LinkOptimizer.Decision underused = LinkOptimizer.decide(s, new LinkOptimizer.Observation(10e6, 1.0, 5, 2, 1), 2, 60, PARAMS);
        assertEquals(6, underused.next().target());
        assertTrue(underused.rationale().contains("not what limits"), underused.rationale());
    }
}
