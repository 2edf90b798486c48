package io.ferry.scheduler.engine;

import io.ferry.engineloop.EngineLoop;
import io.ferry.movers.CopyRequest;
import io.ferry.movers.Mover;
import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.movers.StorageCredentials;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.credentials.StorageTokenDeferred;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.db.EngineConnections;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.queue.QueueSnapshot;
import io.ferry.scheduler.replicas.ClaimPermit;
import io.ferry.scheduler.replicas.RunningFiles;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SchedulingInputsCache;
import io.ferry.scheduler.storage.SiteDirectory;
import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.tape.TapeRows;
import io.ferry.scheduler.tape.TapeStager;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.FileQueue;
import io.ferry.scheduler.transitions.Guard;
import io.ferry.scheduler.transitions.StateStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.net.URI;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The prepare phase, decoupled from moving data: keeps up to prepare-ratio × the link's active target files prepared
 * ahead per link — source stat (exists, size, checksum when offered), destination checks (exists/overwrite, parent
 * collections) and, for SEs that need it, a stage request polled until the file is on disk — picking which files
 * to prepare by the same weighted fair share as the transfers, so one VO's flood cannot fill the prepared pool.
 */
@ApplicationScoped
public class PrepareLoop extends EngineLoop {

    @Inject
    SchedulerConfig config;

    @Inject
    Pool pool;

    /** The queue's statements (counts, claims): on the engine's connections, planned once. */
    @Inject
    @EngineConnections
    Pool queueStatements;

    @Inject
    FileQueue queue;

    @Inject
    StateStore outcomes;

    @Inject
    RunningFiles running;

    @Inject
    MoverChoice movers;

    @Inject
    TapeStager stager;

    @Inject
    SiteDirectory sites;

    @Inject
    FileCredentials credentials;

    @Inject
    StorageBoundary boundary;

    @Inject
    EngineIdentity identity;

    @Inject
    ClaimPermit permit;

    @Inject
    SchedulingInputsCache inputs;

    @Inject
    EngineWakeups wakeups;

    @Inject
    DestinationReport destinationReport;

    private final AtomicInteger inFlight = new AtomicInteger();
    private ExecutorService workers;

    void onStart(@Observes StartupEvent e) {
        if (config.engine().enabled()) {
            workers = workerPool("prepare", config.engine().prepareThreads());
            wakeups.on(EngineWakeups.Event.JOB_SUBMITTED, this::wake);
            wakeups.on(EngineWakeups.Event.FILES_REQUEUED, this::wake);
            wakeups.on(EngineWakeups.Event.PREPARED_POOL_SHRANK, this::wake);
            start("prepare-queue");
        }
    }

    void onStop(@Observes ShutdownEvent e) {
        stop();
        if (workers != null) {
            workers.shutdownNow();
        }
    }

    @Override
    protected Duration period() {
        return config.engine().tick();
    }

    @Override
    protected void pass() {
        int free = config.engine().prepareThreads() * 4 - inFlight.get();
        if (free <= 0 || !permit.mayClaim()) {
            return;
        }
        Duration lease = config.engine().lease();
        // a pass claims at most its free slots, so no queue's waiting files need counting beyond them
        int cap = free;
        List<QueueSnapshot> snapshot = queueStatements.withConnection(c -> queue.snapshot(c, config.engine().pinLifetime(), cap)).await().atMost(Db.WAIT);
        if (snapshot.stream().anyMatch(q -> q.staging() > 0)) {
            // only then: with nothing to poll, the poll's claim would still cost the database a statement every pass
            for (ClaimedFile f : queue.claimStagingPolls(Math.min(free, 100), identity.id(), lease).await().atMost(Db.WAIT)) {
                submit(f);
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
            SchedulingInputs.Link l = in.link(first.sourceSe(), first.destSe(), config.engine().defaultMinActive(), config.engine().defaultMaxActive());
            int ahead = (int) Math.ceil(config.engine().prepareRatio() * l.allowed());
            int held = queues.stream().mapToInt(q -> q.preparing() + q.ready() + q.staging()).sum();
            int budget = Math.min(free, ahead - held);
            if (budget <= 0) {
                continue;
            }
            Map<QueueSnapshot, Integer> plan = Scheduling.plan(budget, queues, in,
                    q -> q.preparing() + q.ready() + q.staging() + q.active(), QueueSnapshot::waiting);
            for (Map.Entry<QueueSnapshot, Integer> p : plan.entrySet()) {
                for (ClaimedFile f : queue.claimForPrepare(p.getKey(), p.getValue(), identity.id(), lease).await().atMost(Db.WAIT)) {
                    submit(f);
                    free--;
                }
            }
        }
    }

    private void submit(ClaimedFile f) {
        inFlight.incrementAndGet();
        workers.submit(() -> {
            try {
                prepare(f);
            } finally {
                inFlight.decrementAndGet();
            }
        });
    }

    void prepare(ClaimedFile f) {
        running.add(f, false);
        OffsetDateTime started = f.prepareStartedAt() != null ? f.prepareStartedAt() : OffsetDateTime.now(ZoneOffset.UTC);
        Mover mover = null;
        CopyRequest req = null;
        try {
            // before every touch of storage, the stage request included: the VO's rights may have changed since submission
            StorageBoundary.Authorized allowed = boundary.authorize(f, "prepare");
            SchedulingInputs.Se source = sites.se(f.sourceSe());
            URI src = allowed.source().toUri();
            StorageCredentials creds = credentials.of(f, src, allowed.destination().toUri(), "prepare");
            if (source != null && stages(f, source) && !stagedOnDisk(f, source, src, creds)) {
                return;
            }
            mover = movers.forUrls(src, allowed.destination().toUri());
            req = CopyRequests.of(f, allowed, 1, sites.se(f.destSe()), creds);
            SourceStat stat = mover.stat(req);
            Mover.checkSource(req, stat);
            mover.prepareDestination(req);
            if (outcomes.prepared(f, stat)) {
                wakeups.filePrepared(f.sourceSe(), f.destSe());
            }
        } catch (StorageTokenDeferred e) {
            outcomes.deferred(f, Guard.PREPARING, e.delay(), e.getMessage());
        } catch (MoverException e) {
            destinationReport.afterRefusal(f, mover, req, e);
            outcomes.failed(f, Guard.PREPARING, f.attempts() + 1, e, 0, null,
                    AttemptTimes.prepare(started, OffsetDateTime.now(ZoneOffset.UTC)));
        } catch (RuntimeException e) {
            outcomes.failed(f, Guard.PREPARING, f.attempts() + 1,
                    new MoverException(MoverException.Code.CONNECTION_RESET, "prepare", "prepare failed: " + e), 0, null,
                    AttemptTimes.prepare(started, OffsetDateTime.now(ZoneOffset.UTC)));
        } finally {
            running.remove(f);
        }
    }

    /** An SE marked as needing it always stages; one with a Tape REST endpoint stages when the job asks (bring_online, copy_pin_lifetime). */
    private boolean stages(ClaimedFile f, SchedulingInputs.Se source) {
        if (source.needsPrepare() || f.stageRequest() != null) {
            return true;
        }
        return source.baseUrls().containsKey("tape") && TapeRows.of(pool, f.fileId(), Db.WAIT).params().staging();
    }

    /** Requests or polls the stage; true once the file is on disk and may be stat'ed. */
    private boolean stagedOnDisk(ClaimedFile f, SchedulingInputs.Se source, URI src, StorageCredentials creds) throws MoverException {
        String tape = source.baseUrls().get("tape");
        if (tape == null) {
            throw new MoverException(MoverException.Code.STAGING_FAILED, "prepare",
                    source.name() + " needs a prepare step but has no 'tape' base URL (WLCG Tape REST API)");
        }
        Duration poll = config.engine().stagePoll();
        TapeRows.Staging staging = TapeRows.of(pool, f.fileId(), Db.WAIT);
        if (f.stageRequest() == null) {
            outcomes.staging(f, stager.request(tape, src, staging.params(), creds.source()), poll);
            return false;
        }
        int bringOnline = staging.params().bringOnline();
        if (bringOnline > 0 && staging.stagingStart() != null
                && staging.stagingStart().plusSeconds(bringOnline).isBefore(OffsetDateTime.now(ZoneOffset.UTC))) {
            // FTS3's reason, and like FTS3 retryable (a retry stages again); the request is cancelled so the SE stops
            // recalling a file nobody will copy
            stager.cancelQuietly(tape, f.stageRequest(), src, creds.source());
            throw new MoverException(MoverException.Code.TIMEOUT, "prepare", "bring-online timeout has been exceeded");
        }
        TapeStager.Status status = stager.poll(tape, f.stageRequest(), src, creds.source());
        if (status.error() != null) {
            throw new MoverException(MoverException.Code.STAGING_FAILED, "prepare", "staging failed: " + status.error());
        }
        if (!status.onDisk()) {
            outcomes.stillStaging(f, poll);
            return false;
        }
        return true;
    }
}
