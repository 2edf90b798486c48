package io.ferry.scheduler.replicas;

import io.ferry.engineloop.EngineLoop;
import io.ferry.movers.MoverException;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.FileQueue;
import io.ferry.scheduler.transitions.Guard;
import io.ferry.scheduler.transitions.StateStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Takes the files of replicas that stopped beating: a replica silent for the heartbeat timeout is declared dead
 * (it can no longer beat under that id), its copies go back to the queue as lapsed attempts (LEASE_EXPIRED:
 * retried at once, no retry used, the destination then ours to replace), its prepare claims are released, and it is
 * forgotten. Every replica sweeps, once its own beats have got through for a heartbeat timeout (after a database
 * outage all beats look old); two sweeping at once are kept apart by the claim epochs.
 */
@ApplicationScoped
public class DeadReplicaSweeper extends EngineLoop {

    private static final Logger LOG = Logger.getLogger(DeadReplicaSweeper.class);

    private final SchedulerConfig config;
    private final Replicas replicas;
    private final FileQueue queue;
    private final StateStore outcomes;
    private final EngineIdentity identity;
    private final EngineWakeups wakeups;
    private final ReplicaHeartbeat heartbeat;

    @Inject
    DeadReplicaSweeper(SchedulerConfig config, Replicas replicas, FileQueue queue, StateStore outcomes,
                       EngineIdentity identity, EngineWakeups wakeups, ReplicaHeartbeat heartbeat) {
        this.config = config;
        this.replicas = replicas;
        this.queue = queue;
        this.outcomes = outcomes;
        this.identity = identity;
        this.wakeups = wakeups;
        this.heartbeat = heartbeat;
    }

    @Override
    public String name() {
        return "replica-sweeper";
    }

    @Override
    protected Duration period() {
        return config.engine().heartbeat();
    }

    @Override
    protected void pass() {
        if (!heartbeat.mayJudgeOthers()) {
            return;
        }
        Duration timeout = config.engine().heartbeatTimeout();
        for (String dead : replicas.dead(identity.id(), timeout).await().atMost(Db.WAIT)) {
            if (!replicas.declareDead(dead, timeout).await().atMost(Db.WAIT)) {
                continue;
            }
            List<ClaimedFile> active = queue.abandonedActive(dead).await().atMost(Db.WAIT);
            for (ClaimedFile f : active) {
                OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
                outcomes.failed(f, Guard.ABANDONED, Math.max(1, f.attempts()), new MoverException(MoverException.Code.LEASE_EXPIRED,
                                "transfer", "the scheduler replica moving it stopped beating; queued again"), 0, null,
                        new AttemptTimes(f.prepareStartedAt(), f.preparedAt(), null, null, null, null).withEnd(now));
            }
            int released = queue.releaseClaims(dead).await().atMost(Db.WAIT);
            replicas.forget(dead).await().atMost(Db.WAIT);
            if (!active.isEmpty() || released > 0) {
                LOG.infof("replica %s stopped beating; back to the queue: %d copies, %d prepare claims", dead, active.size(), released);
                wakeups.filesRequeued();
            }
        }
    }
}
