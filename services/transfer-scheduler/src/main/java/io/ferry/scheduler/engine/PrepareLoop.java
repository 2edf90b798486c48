package io.ferry.scheduler.engine;

import io.ferry.engineloop.EngineLoop;
import io.ferry.engineloop.WorkerPool;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.db.EngineConnections;
import io.ferry.scheduler.engine.tasks.PrepareTask;
import io.ferry.scheduler.engine.tasks.StageBatches;
import io.ferry.scheduler.loops.WokenBy;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.queue.QueueSnapshot;
import io.ferry.scheduler.replicas.ClaimPermit;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SchedulingInputsCache;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.FileQueue;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The prepare phase, decoupled from moving data: keeps up to prepare-ratio × the link's active target files prepared
 * ahead per link, picking which files to prepare by the same weighted fair share as the transfers, so one VO's flood
 * cannot fill the prepared pool. The pass claims (files due a stage poll first) and hands each file to
 * {@link PrepareTask} on the pool's threads: {@code prepare-threads}, at most four times as many tasks in hand. Files
 * from an SE with a Tape REST endpoint go to {@link StageBatches} together, one task per SE (and per stage request
 * when polled), so that they are staged and polled in batches; a link from such an SE keeps up to {@code stage-batch}
 * files staging or prepared ahead whatever its active target, as a tape system wants its recalls in bulk.
 */
@ApplicationScoped
public class PrepareLoop extends EngineLoop implements WokenBy {

    private final SchedulerConfig config;
    /** The queue's statements (counts, claims): on the engine's connections, planned once. */
    private final Pool queueStatements;
    private final FileQueue queue;
    private final EngineIdentity identity;
    private final ClaimPermit permit;
    private final SchedulingInputsCache inputs;
    private final PrepareTask task;
    private final StageBatches stages;
    private final WorkerPool workers;

    @Inject
    PrepareLoop(SchedulerConfig config, @EngineConnections Pool queueStatements, FileQueue queue, EngineIdentity identity,
                ClaimPermit permit, SchedulingInputsCache inputs, PrepareTask task, StageBatches stages) {
        this.config = config;
        this.queueStatements = queueStatements;
        this.queue = queue;
        this.identity = identity;
        this.permit = permit;
        this.inputs = inputs;
        this.task = task;
        this.stages = stages;
        this.workers = workerPool("prepare", config.engine().prepareThreads(), config.engine().prepareThreads() * 4);
    }

    @Override
    public String name() {
        return "prepare-queue";
    }

    @Override
    public Set<EngineWakeups.Event> wokenBy() {
        return Set.of(EngineWakeups.Event.JOB_SUBMITTED, EngineWakeups.Event.FILES_REQUEUED, EngineWakeups.Event.PREPARED_POOL_SHRANK);
    }

    @Override
    protected Duration period() {
        return config.engine().tick();
    }

    @Override
    protected void pass() {
        int free = workers.free();
        if (free <= 0 || !permit.mayClaim()) {
            return;
        }
        Duration lease = config.engine().lease();
        int batch = Math.max(1, config.engine().stageBatch());
        // a pass claims at most its free slots, so no queue's waiting files need counting beyond them; with tape SEs
        // registered, a batch of them
        boolean tapes = inputs.get().ses().values().stream().anyMatch(se -> se.baseUrls().containsKey("tape"));
        int cap = tapes ? Math.max(free, batch) : free;
        List<QueueSnapshot> snapshot = queueStatements.withConnection(c -> queue.snapshot(c, config.engine().pinLifetime(), cap)).await().atMost(Db.WAIT);
        if (snapshot.stream().anyMatch(q -> q.staging() > 0)) {
            // only then: with nothing to poll, the poll's claim would still cost the database a statement every pass
            Map<String, List<ClaimedFile>> byRequest = new LinkedHashMap<>();
            for (ClaimedFile f : queue.claimStagingPolls(Math.min(free * batch, 1000), identity.id(), lease).await().atMost(Db.WAIT)) {
                byRequest.computeIfAbsent(f.sourceSe() + "\u0000" + f.stageRequest(), k -> new ArrayList<>()).add(f);
            }
            for (List<ClaimedFile> request : byRequest.values()) {
                workers.submit(() -> stages.poll(request, this::prepareOne));
                free--;
            }
        }
        SchedulingInputs in = inputs.get(Scheduling.sesOf(snapshot));
        for (Map.Entry<String, List<QueueSnapshot>> link : Scheduling.byLink(snapshot).entrySet()) {
            List<QueueSnapshot> queues = link.getValue();
            if (free <= 0 || queues.stream().noneMatch(q -> q.waiting() > 0)) {
                continue;
            }
            QueueSnapshot first = queues.get(0);
            if (!in.ses().containsKey(first.sourceSe()) || !in.ses().containsKey(first.destSe())) {
                // an SE unregistered since submission: Ferry touches registered storage only, the files wait
                continue;
            }
            boolean tapeSource = in.ses().get(first.sourceSe()).baseUrls().containsKey("tape");
            SchedulingInputs.Link l = in.link(first.sourceSe(), first.destSe(), config.engine().defaultMinActive(), config.engine().defaultMaxActive());
            int ahead = (int) Math.ceil(config.engine().prepareRatio() * l.allowed());
            int held = queues.stream().mapToInt(q -> q.preparing() + q.ready() + q.staging()).sum();
            // a tape source's files go to one task together, however many
            int budget = tapeSource ? Math.max(ahead, batch) - held : Math.min(free, ahead - held);
            if (budget <= 0) {
                continue;
            }
            Map<QueueSnapshot, Integer> plan = Scheduling.plan(budget, queues, in,
                    q -> q.preparing() + q.ready() + q.staging() + q.active(), QueueSnapshot::waiting);
            List<ClaimedFile> fromTape = new ArrayList<>();
            for (Map.Entry<QueueSnapshot, Integer> p : plan.entrySet()) {
                for (ClaimedFile f : queue.claimForPrepare(p.getKey(), p.getValue(), identity.id(), lease).await().atMost(Db.WAIT)) {
                    if (tapeSource) {
                        fromTape.add(f);
                    } else {
                        prepareOne(f);
                        free--;
                    }
                }
            }
            if (!fromTape.isEmpty()) {
                workers.submit(() -> stages.request(fromTape, this::prepareOne));
                free--;
            }
        }
    }

    private void prepareOne(ClaimedFile f) {
        workers.submit(() -> task.prepare(f));
    }
}
