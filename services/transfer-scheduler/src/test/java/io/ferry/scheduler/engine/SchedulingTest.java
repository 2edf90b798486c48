package io.ferry.scheduler.engine;

import io.ferry.scheduler.queue.QueueSnapshot;
import io.ferry.scheduler.storage.SchedulingInputs;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two-level share of a link's free slots the engine claims by: between VOs by their weights, then between each
 * VO's activities by theirs, with what each queue already runs counted against it.
 */
class SchedulingTest {

    static QueueSnapshot ready(String vo, String activity, int ready, int active) {
        return new QueueSnapshot("RAL-DISK", "CERN-DISK", vo, activity, 0, 0, ready, active, 0);
    }

    static QueueSnapshot onLink(String source, String dest, String vo) {
        return new QueueSnapshot(source, dest, vo, "default", 1, 0, 0, 0, 0);
    }

    static SchedulingInputs weights(Map<String, Double> vo, Map<String, Double> activities) {
        Map<String, Double> act = new HashMap<>();
        activities.forEach((k, w) -> act.put(k.replace('/', '\u0000'), w));
        return new SchedulingInputs(Map.of(), Map.of(), Map.of(), vo, act);
    }

    static Map<QueueSnapshot, Integer> startPlan(int slots, List<QueueSnapshot> queues, SchedulingInputs in) {
        return Scheduling.plan(slots, queues, in, QueueSnapshot::active, QueueSnapshot::ready);
    }

    @Test
    void vosShareByWeightThenActivitiesShareTheirVosPart() {
        QueueSnapshot production = ready("atlas", "Production", 50, 0);
        QueueSnapshot analysis = ready("atlas", "Analysis", 50, 0);
        QueueSnapshot cms = ready("cms", "default", 50, 0);
        SchedulingInputs in = weights(Map.of("atlas", 4.0, "cms", 1.0), Map.of("atlas/Production", 3.0, "atlas/Analysis", 1.0));
        Map<QueueSnapshot, Integer> plan = startPlan(10, List.of(production, analysis, cms), in);
        assertEquals(Map.of(production, 6, analysis, 2, cms, 2), plan);
    }

    @Test
    void whatAQueueRunsCountsAgainstItsVoAndItsActivity() {
        // a 3:1 link of 8 where cms already runs 4: the 4 free slots are atlas's, and inside atlas Production,
        // which runs nothing yet, catches up with Analysis first
        QueueSnapshot production = ready("atlas", "Production", 50, 0);
        QueueSnapshot analysis = ready("atlas", "Analysis", 50, 2);
        QueueSnapshot cms = ready("cms", "default", 50, 4);
        SchedulingInputs in = weights(Map.of("atlas", 3.0, "cms", 1.0), Map.of());
        Map<QueueSnapshot, Integer> plan = startPlan(4, List.of(production, analysis, cms), in);
        assertEquals(Map.of(production, 3, analysis, 1), plan);
    }

    @Test
    void aVoWithNothingReadyGetsNothingAndItsShareGoesToTheOthers() {
        QueueSnapshot atlas = ready("atlas", "default", 0, 0);
        QueueSnapshot cms = ready("cms", "default", 50, 0);
        Map<QueueSnapshot, Integer> plan = startPlan(8, List.of(atlas, cms), weights(Map.of("atlas", 3.0, "cms", 1.0), Map.of()));
        assertEquals(Map.of(cms, 8), plan);
    }

    @Test
    void anActivityWithNothingReadyLeavesItsPartToTheVosOtherActivities() {
        QueueSnapshot production = ready("atlas", "Production", 0, 0);
        QueueSnapshot analysis = ready("atlas", "Analysis", 50, 0);
        QueueSnapshot cms = ready("cms", "default", 50, 0);
        SchedulingInputs in = weights(Map.of(), Map.of("atlas/Production", 9.0));
        Map<QueueSnapshot, Integer> plan = startPlan(6, List.of(production, analysis, cms), in);
        // the VOs still split 1:1; atlas's three go to the activity that has work
        assertEquals(Map.of(analysis, 3, cms, 3), plan);
    }

    @Test
    void vosAndActivitiesWithoutAConfiguredWeightCountAsOne() {
        QueueSnapshot atlas = ready("atlas", "default", 50, 0);
        QueueSnapshot cms = ready("cms", "default", 50, 0);
        QueueSnapshot unknown = ready("dteam", "default", 50, 0);
        Map<QueueSnapshot, Integer> plan = startPlan(10, List.of(atlas, cms, unknown), weights(Map.of("atlas", 3.0), Map.of()));
        assertEquals(Map.of(atlas, 6, cms, 2, unknown, 2), plan);

        QueueSnapshot express = ready("atlas", "Express", 50, 0);
        QueueSnapshot other = ready("atlas", "default", 50, 0);
        plan = startPlan(8, List.of(express, other), weights(Map.of(), Map.of("atlas/Express", 3.0)));
        assertEquals(Map.of(express, 6, other, 2), plan);
    }

    @Test
    void anActivityWeightBelongsToItsVoOnly() {
        // atlas gives Production weight 3; cms's Production and the VOs' split are untouched by it
        QueueSnapshot atlasProduction = ready("atlas", "Production", 50, 0);
        QueueSnapshot atlasDefault = ready("atlas", "default", 50, 0);
        QueueSnapshot cmsProduction = ready("cms", "Production", 50, 0);
        QueueSnapshot cmsDefault = ready("cms", "default", 50, 0);
        SchedulingInputs in = weights(Map.of(), Map.of("atlas/Production", 3.0));
        Map<QueueSnapshot, Integer> plan = startPlan(8, List.of(atlasProduction, atlasDefault, cmsProduction, cmsDefault), in);
        assertEquals(Map.of(atlasProduction, 3, atlasDefault, 1, cmsProduction, 2, cmsDefault, 2), plan);
    }

    @Test
    void aPlanNeverExceedsTheFreeSlotsNorWhatAQueueCanTake() {
        Random r = new Random(5);
        List<String> vos = List.of("atlas", "cms", "lhcb", "dteam");
        List<String> activities = List.of("default", "Production", "Analysis");
        for (int round = 0; round < 300; round++) {
            List<QueueSnapshot> queues = new ArrayList<>();
            for (String vo : vos) {
                for (String activity : activities) {
                    if (r.nextBoolean()) {
                        queues.add(ready(vo, activity, r.nextInt(6), r.nextInt(4)));
                    }
                }
            }
            SchedulingInputs in = weights(Map.of("atlas", 1.0 + r.nextInt(5), "cms", 0.5 + r.nextInt(3)),
                    Map.of("atlas/Production", 1.0 + r.nextInt(9), "cms/Analysis", 0.25));
            int slots = r.nextInt(30);
            Map<QueueSnapshot, Integer> plan = startPlan(slots, queues, in);
            int readyTotal = queues.stream().mapToInt(QueueSnapshot::ready).sum();
            int planned = plan.values().stream().mapToInt(Integer::intValue).sum();
            assertEquals(Math.min(slots, readyTotal), planned, "free slots left idle or overbooked: " + queues + " -> " + plan);
            plan.forEach((q, n) -> assertTrue(n > 0 && n <= q.ready(), q + " planned " + n));
        }
    }

    @Test
    void theEnginePlansTheLinksQueuesOneLinkAtATimeInAStableOrder() {
        QueueSnapshot a = onLink("RAL-DISK", "CERN-DISK", "atlas");
        QueueSnapshot b = onLink("BNL-DISK", "CERN-DISK", "atlas");
        QueueSnapshot c = onLink("RAL-DISK", "CERN-DISK", "cms");
        QueueSnapshot d = onLink("CERN-DISK", "RAL-DISK", "cms");
        Map<String, List<QueueSnapshot>> links = Scheduling.byLink(List.of(a, b, c, d));
        assertEquals(List.of(List.of(b), List.of(d), List.of(a, c)), List.copyOf(links.values()),
                "links sorted by source then destination, a link's queues in snapshot order");
        assertEquals(Set.of("RAL-DISK", "CERN-DISK", "BNL-DISK"), Scheduling.sesOf(List.of(a, b, c, d)));
        // the link key keeps source and destination apart: "A" -> "BC" is not "AB" -> "C"
        assertEquals(2, Scheduling.byLink(List.of(onLink("A", "BC", "atlas"), onLink("AB", "C", "atlas"))).size());
    }

    @Test
    void aLinkRunsTheOptimizersTargetWithinItsBoundsOrItsMaxWhenFixed() {
        assertEquals(2, new SchedulingInputs.Link(2, 20, "adaptive", null, null).allowed(), "no decision yet: min_active");
        assertEquals(7, new SchedulingInputs.Link(2, 20, "adaptive", null, 7).allowed());
        assertEquals(20, new SchedulingInputs.Link(2, 20, "adaptive", null, 35).allowed(), "a target above max_active (max lowered since)");
        assertEquals(4, new SchedulingInputs.Link(4, 20, "adaptive", null, 2).allowed(), "a target below min_active (min raised since)");
        assertEquals(20, new SchedulingInputs.Link(2, 20, "fixed", null, 7).allowed(), "fixed links ignore the optimizer");
        SchedulingInputs in = new SchedulingInputs(Map.of(), Map.of(SchedulingInputs.key("RAL-DISK", "CERN-DISK"), 9), Map.of(), Map.of(), Map.of());
        assertEquals(9, in.link("RAL-DISK", "CERN-DISK", 2, 50).allowed(), "an unconfigured link: the defaults bound the optimizer's target");
        assertEquals(2, in.link("CERN-DISK", "RAL-DISK", 2, 50).allowed());
    }
}
