package io.ferry.scheduler.engine;

import io.ferry.scheduler.queue.QueueSnapshot;
import io.ferry.scheduler.storage.SchedulingInputs;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/** Two-level fair share of a link's free slots: between VOs by their weights, then between each VO's activities. */
final class Scheduling {

    private Scheduling() {
    }

    /** Every SE the queues name. */
    static Set<String> sesOf(List<QueueSnapshot> snapshot) {
        Set<String> ses = new HashSet<>();
        snapshot.forEach(q -> {
            ses.add(q.sourceSe());
            ses.add(q.destSe());
        });
        return ses;
    }

    /** Queues grouped per link, links in a stable order. */
    static Map<String, List<QueueSnapshot>> byLink(List<QueueSnapshot> snapshot) {
        Map<String, List<QueueSnapshot>> out = new TreeMap<>();
        for (QueueSnapshot q : snapshot) {
            out.computeIfAbsent(SchedulingInputs.key(q.sourceSe(), q.destSe()), k -> new ArrayList<>()).add(q);
        }
        return out;
    }

    /**
     * How many of {@code slots} each queue of one link gets.
     *
     * @param held    what a queue already holds (counted against its share)
     * @param waiting what a queue could take
     */
    static Map<QueueSnapshot, Integer> plan(int slots, List<QueueSnapshot> queues, SchedulingInputs in, ToIntFunction<QueueSnapshot> held,
                                            ToIntFunction<QueueSnapshot> waiting) {
        Map<String, List<QueueSnapshot>> byVo = new TreeMap<>();
        queues.forEach(q -> byVo.computeIfAbsent(q.vo(), k -> new ArrayList<>()).add(q));
        List<FairShare.Claimant> vos = new ArrayList<>();
        byVo.forEach((vo, qs) -> vos.add(new FairShare.Claimant(vo, in.voWeight(vo), qs.stream().mapToInt(held).sum(),
                qs.stream().mapToInt(waiting).sum())));
        Map<QueueSnapshot, Integer> plan = new LinkedHashMap<>();
        FairShare.allocate(slots, vos).forEach((vo, n) -> {
            List<QueueSnapshot> qs = byVo.get(vo);
            List<FairShare.Claimant> activities = new ArrayList<>();
            qs.forEach(q -> activities.add(new FairShare.Claimant(q.activity(), in.activityWeight(vo, q.activity()), held.applyAsInt(q),
                    waiting.applyAsInt(q))));
            FairShare.allocate(n, activities).forEach((activity, k) -> qs.stream().filter(q -> q.activity().equals(activity))
                    .findFirst().ifPresent(q -> plan.put(q, k)));
        });
        return plan;
    }
}
