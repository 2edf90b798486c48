package io.ferry.scheduler.engine;

import io.ferry.engineloop.EngineLoop;
import io.ferry.engineloop.WorkerPool;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.engine.tasks.TransferTask;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.queue.QueueSnapshot;
import io.ferry.scheduler.replicas.ClaimPermit;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SchedulingInputsCache;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.StateStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Starts prepared files: per link, as many as the optimizer's target allows, never more than the SEs' inbound and
 * outbound caps, the free slots shared between VOs (and their activities) by weight. The pass holds a database-wide
 * advisory lock while it counts and claims, so replicas on one database together never exceed a limit; each copy
 * runs as a {@link TransferTask} on this replica's transfer threads (one per file in hand) under a lease the
 * LeaseKeeper renews.
 */
@ApplicationScoped
public class TransferLoop extends EngineLoop {

    private final SchedulerConfig config;
    private final StateStore outcomes;
    private final EngineIdentity identity;
    private final ClaimPermit permit;
    private final SchedulingInputsCache inputs;
    private final EngineWakeups wakeups;
    private final TransferTask task;
    private final WorkerPool workers;
    /** When the latest pass past the capacity check began ({@link System#nanoTime}): its snapshot is later. */
    private volatile long passStartedNanos = System.nanoTime();
    /** Links whose prepared files did not all start at the last pass (keys of {@link SchedulingInputs#key}). */
    private final Set<String> linksWithReadyWaiting = ConcurrentHashMap.newKeySet();
    /** Per link, files started since the prepare loop was last asked to refill it (the loop's thread only). */
    private final Map<String, Integer> startedSinceRefill = new HashMap<>();

    @Inject
    TransferLoop(SchedulerConfig config, StateStore outcomes,
                 EngineIdentity identity, ClaimPermit permit, SchedulingInputsCache inputs, EngineWakeups wakeups, TransferTask task) {
        this.config = config;
        this.outcomes = outcomes;
        this.identity = identity;
        this.permit = permit;
        this.inputs = inputs;
        this.wakeups = wakeups;
        this.task = task;
        this.workers = workerPool("transfer", config.engine().transferThreads(), config.engine().transferThreads());
    }

    @Override
    public String name() {
        return "transfers";
    }

    @Override
    protected void beforeStart() {
        wakeups.onLink(EngineWakeups.Event.FILE_PREPARED, this::filePrepared);
    }

    @Override
    protected Duration period() {
        return config.engine().tick();
    }

    /**
     * Every finished file wakes this loop; with the default gap a link of fast files empties its slots many times
     * per job while prepared files wait, and a pass is a handful of short statements, so a shorter gap still bounds
     * its cost.
     */
    @Override
    protected Duration minimumGap() {
        return Duration.ofMillis(5);
    }

    @Override
    protected void pass() {
        int capacity = workers.free();
        if (capacity <= 0 || !permit.mayClaim()) {
            return;
        }
        passStartedNanos = System.nanoTime();
        // subscribers hear ACTIVE before anything a fast copy reports: a claim announces its files when their job is
        // already ACTIVE, the others after their job's write below
        Map<UUID, List<Long>> jobsToStart = new LinkedHashMap<>();
        Set<String> stillWaiting = new HashSet<>();
        boolean[] refill = {false};
        Map<ClaimedFile, Integer> claimed = outcomes.schedulingPass(c -> {
            List<QueueSnapshot> snapshot = c.startable(config.engine().pinLifetime());
            SchedulingInputs in = inputs.get(Scheduling.sesOf(snapshot));
            Map<String, Integer> outbound = new HashMap<>();
            Map<String, Integer> inbound = new HashMap<>();
            for (QueueSnapshot q : snapshot) {
                outbound.merge(q.sourceSe(), q.active(), Integer::sum);
                inbound.merge(q.destSe(), q.active(), Integer::sum);
            }
            Map<ClaimedFile, Integer> out = new LinkedHashMap<>();
            int left = capacity;
            for (Map.Entry<String, List<QueueSnapshot>> byLink : Scheduling.byLink(snapshot).entrySet()) {
                List<QueueSnapshot> queues = byLink.getValue();
                int ready = queues.stream().mapToInt(QueueSnapshot::ready).sum();
                if (ready == 0) {
                    continue;
                }
                int started = left <= 0 ? 0 : startOnLink(c, queues, in, outbound, inbound, left, out, jobsToStart);
                left -= started;
                if (started < ready) {
                    stillWaiting.add(byLink.getKey());
                }
                if (started > 0 && prepareAhead(byLink.getKey(), started, ready - started, in, queues.get(0))) {
                    refill[0] = true;
                }
            }
            return out;
        });
        linksWithReadyWaiting.retainAll(stillWaiting);
        linksWithReadyWaiting.addAll(stillWaiting);
        if (claimed.size() >= capacity) {
            // the pass ran out of transfer threads, not of slots: a slot freed meanwhile still needs a pass
            wake();
        }
        if (refill[0]) {
            // the prepared pool shrank: refill it now, not at the next tick, or a fast link drains it and idles
            wakeups.preparedPoolShrank();
        }
        jobsToStart.forEach((job, ids) -> outcomes.started(job, ids, STARTED));
        claimed.forEach((f, linkStreams) -> workers.submit(() -> task.move(f, linkStreams == 0 ? null : linkStreams), settled -> {
            // a slot of the link is free: its waiting files may start, unless a pass that began after the outcome's
            // commit (and so counts the slot free) already claims for it: the outcomes of a batch commit together and
            // would otherwise each wake a pass of their own
            linksWithReadyWaiting.remove(SchedulingInputs.key(f.sourceSe(), f.destSe()));
            if (settled == null || passStartedNanos - settled <= 0) {
                wake();
            }
        }));
    }

    private static final String STARTED = "transfer started";

    /**
     * Claims what the link's free slots allow (its target, the SEs' caps, the pass's capacity), shared between its
     * queues by weight; answers how many files it claimed.
     */
    private int startOnLink(StateStore.SchedulingPass c, List<QueueSnapshot> queues, SchedulingInputs in,
                            Map<String, Integer> outbound, Map<String, Integer> inbound, int left, Map<ClaimedFile, Integer> out,
                            Map<UUID, List<Long>> jobsToStart) {
        QueueSnapshot first = queues.get(0);
        SchedulingInputs.Link link = in.link(first.sourceSe(), first.destSe(), config.engine().defaultMinActive(),
                config.engine().defaultMaxActive());
        int free = link.allowed() - queues.stream().mapToInt(QueueSnapshot::active).sum();
        SchedulingInputs.Se src = in.ses().get(first.sourceSe());
        SchedulingInputs.Se dst = in.ses().get(first.destSe());
        if (src == null || dst == null) {
            // an SE unregistered since submission: Ferry touches registered storage only, the files wait
            return 0;
        }
        free = Math.min(free, src.outboundMax() - outbound.getOrDefault(src.name(), 0));
        free = Math.min(free, dst.inboundMax() - inbound.getOrDefault(dst.name(), 0));
        free = Math.min(free, left);
        if (free <= 0) {
            return 0;
        }
        int started = 0;
        Map<QueueSnapshot, Integer> plan = Scheduling.plan(free, queues, in, QueueSnapshot::active, QueueSnapshot::ready);
        for (Map.Entry<QueueSnapshot, Integer> p : plan.entrySet()) {
            StateStore.Claim claim = c.claimStarted(p.getKey(), p.getValue(), identity.id(), config.engine().lease(),
                    config.engine().pinLifetime(), STARTED);
            claim.jobsToStart().forEach((job, ids) -> jobsToStart.computeIfAbsent(job, k -> new ArrayList<>()).addAll(ids));
            List<ClaimedFile> files = claim.files();
            for (ClaimedFile f : files) {
                out.put(f, link.nostreams() == null ? 0 : link.nostreams());
            }
            outbound.merge(first.sourceSe(), files.size(), Integer::sum);
            inbound.merge(first.destSe(), files.size(), Integer::sum);
            started += files.size();
        }
        return started;
    }

    /**
     * Whether the prepare loop should refill the link now: once half a link's worth of its prepared files started
     * since the last refill, or at once when fewer prepared files are left than the link runs. Waking it on every
     * claim made it count the queue for every file or two.
     */
    private boolean prepareAhead(String linkKey, int started, int readyLeft, SchedulingInputs in, QueueSnapshot first) {
        int allowed = in.link(first.sourceSe(), first.destSe(), config.engine().defaultMinActive(), config.engine().defaultMaxActive()).allowed();
        int since = startedSinceRefill.merge(linkKey, started, Integer::sum);
        if (since * 2 >= allowed || readyLeft < allowed) {
            startedSinceRefill.remove(linkKey);
            return true;
        }
        return false;
    }

    /**
     * A file prepared on a link whose prepared files already wait for a slot changes nothing until a slot frees (a
     * copy of this replica ending wakes the loop, the tick covers the rest), so it does not cost a pass.
     */
    private void filePrepared(EngineWakeups.Link link) {
        if (link == null || !linksWithReadyWaiting.contains(SchedulingInputs.key(link.sourceSe(), link.destSe()))) {
            wake();
        }
    }
}
