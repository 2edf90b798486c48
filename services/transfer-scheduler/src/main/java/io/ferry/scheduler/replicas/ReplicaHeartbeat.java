package io.ferry.scheduler.replicas;

import io.ferry.engineloop.EngineLoop;
import io.ferry.movers.MoverException;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.EngineIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;

/**
 * This replica's sign of life: registers each process start under its own incarnation and beats every
 * {@code heartbeat}. The replica claims files only while its beats get through ({@link #alive}); one declared dead
 * meanwhile (a pause longer than the heartbeat timeout, the database out of reach) has lost its files to the
 * others, so it stops the copies it still runs and starts over as a new incarnation.
 */
@ApplicationScoped
public class ReplicaHeartbeat extends EngineLoop {

    private static final Logger LOG = Logger.getLogger(ReplicaHeartbeat.class);

    private final SchedulerConfig config;
    private final Replicas replicas;
    private final EngineIdentity identity;
    private final RunningFiles running;

    @Inject
    ReplicaHeartbeat(SchedulerConfig config, Replicas replicas, EngineIdentity identity, RunningFiles running) {
        this.config = config;
        this.replicas = replicas;
        this.identity = identity;
        this.running = running;
    }

    private volatile boolean registered;
    private volatile long lastBeatNanos;
    /** Whether every beat got through since {@link #steadySinceNanos}. */
    private volatile boolean steady;
    private volatile long steadySinceNanos;
    private boolean everFailed;

    @Override
    public String name() {
        return "heartbeat";
    }

    @Override
    protected Duration period() {
        return config.engine().heartbeat();
    }

    /**
     * Whether this replica's claims still count: its last beat got through within half the heartbeat timeout (the
     * other half is the margin before another replica may declare it dead).
     */
    public boolean alive() {
        return registered && System.nanoTime() - lastBeatNanos < config.engine().heartbeatTimeout().toNanos() / 2;
    }

    /**
     * Whether this replica may judge others dead: its own beats have got through for a whole heartbeat timeout. After
     * the database was out of reach, every replica's last beat looks old; each gets that long to beat again before
     * any is declared dead. A process that started with the database in reach judges at once.
     */
    public boolean mayJudgeOthers() {
        return alive() && steady && System.nanoTime() - steadySinceNanos >= config.engine().heartbeatTimeout().toNanos();
    }

    @Override
    protected void pass() {
        try {
            beat();
        } catch (RuntimeException e) {
            everFailed = true;
            steady = false;
            throw e;
        }
    }

    private void beat() {
        if (!registered) {
            register();
        } else if (replicas.beat(identity.id()).await().atMost(Db.WAIT)) {
            lastBeatNanos = System.nanoTime();
            if (!steady) {
                steadySinceNanos = lastBeatNanos;
                steady = true;
            }
        } else {
            String lost = identity.id();
            identity.reincarnate();
            List<RunningFiles.Running> stopped = running.all();
            for (RunningFiles.Running r : stopped) {
                // their files are queued again; the copies' own writes would be refused, stopping them frees the links
                r.progress().abort(MoverException.Code.LEASE_EXPIRED, "this scheduler replica was declared dead (silent for more than "
                        + config.engine().heartbeatTimeout().toSeconds() + " s); the file was queued again");
            }
            LOG.warnf("this replica (%s) was declared dead by another: its files went back to the queue, %d copies stopped; continuing as %s",
                    lost, stopped.size(), identity.id());
            registered = false;
            register();
        }
    }

    private void register() {
        replicas.register(identity.id(), identity.name()).await().atMost(Db.WAIT);
        if (config.engine().instanceId().isPresent()) {
            int superseded = replicas.supersede(identity.name(), identity.id()).await().atMost(Db.WAIT);
            if (superseded > 0) {
                LOG.infof("an earlier start of %s is gone: its files go back to the queue now", identity.name());
            }
        }
        lastBeatNanos = System.nanoTime();
        if (!steady) {
            steadySinceNanos = everFailed ? lastBeatNanos : lastBeatNanos - config.engine().heartbeatTimeout().toNanos();
            steady = true;
        }
        registered = true;
    }
}
