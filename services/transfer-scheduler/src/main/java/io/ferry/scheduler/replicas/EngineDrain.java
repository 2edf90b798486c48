package io.ferry.scheduler.replicas;

import io.ferry.movers.MoverException;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.transitions.FileQueue;
import io.ferry.scheduler.transitions.StateStore;
import io.quarkus.runtime.ShutdownEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Shutdown (SIGTERM, a rolling update) without leaving files to a lapsing heartbeat: claiming stops, copies expected
 * to finish within the drain grace finish, the others go back to the queue at once as if they had not started
 * (SUBMITTED, the attempt not counted, no retry used), prepare claims are released, and the replica retires so that
 * anything it still holds is the others' at once. Observes the shutdown before every other observer: the loops, the
 * lease keeper, the heartbeat, the batch writers and the database pool all still run while it drains.
 */
@ApplicationScoped
public class EngineDrain {

    private static final Logger LOG = Logger.getLogger(EngineDrain.class);
    private static final Duration ROUND = Duration.ofMillis(100);
    /** A copy younger than this has no rate to judge by yet. */
    private static final Duration TOO_EARLY_TO_TELL = Duration.ofSeconds(1);
    /** How much longer than its estimate a copy may turn out to take and still finish within the grace. */
    private static final double MARGIN = 1.2;

    private final SchedulerConfig config;
    private final RunningFiles running;
    private final FileQueue queue;
    private final Replicas replicas;
    private final EngineIdentity identity;
    private final StateStore changes;

    @Inject
    EngineDrain(SchedulerConfig config, RunningFiles running, FileQueue queue, Replicas replicas, EngineIdentity identity,
                StateStore changes) {
        this.config = config;
        this.running = running;
        this.queue = queue;
        this.replicas = replicas;
        this.identity = identity;
        this.changes = changes;
    }

    private volatile boolean draining;

    public boolean draining() {
        return draining;
    }

    void onStop(@Observes @Priority(Interceptor.Priority.PLATFORM_BEFORE) ShutdownEvent e) {
        if (config.engine().enabled()) {
            drain(config.engine().drainGrace());
        }
    }

    void drain(Duration grace) {
        draining = true;
        long start = System.nanoTime();
        long end = start + grace.toNanos();
        int copies = (int) running.all().stream().filter(RunningFiles.Running::moving).count();
        Set<Long> handedBack = new HashSet<>();
        int handed = 0;
        try {
            while (System.nanoTime() < end) {
                List<RunningFiles.Running> left = running.all().stream().filter(r -> !handedBack.contains(r.file().fileId())).toList();
                if (left.isEmpty()) {
                    break;
                }
                for (RunningFiles.Running r : left) {
                    if (r.moving() && !canFinishBy(r, end)) {
                        handed += handBack(r, handedBack) ? 1 : 0;
                    }
                }
                Thread.sleep(ROUND.toMillis());
            }
            for (RunningFiles.Running r : running.all()) {
                if (r.moving() && !handedBack.contains(r.file().fileId())) {
                    handed += handBack(r, handedBack) ? 1 : 0;
                }
            }
            int released = queue.releaseClaims(identity.id()).await().atMost(Db.WAIT);
            replicas.retire(identity.id()).await().atMost(Db.WAIT);
            LOG.infof("drained in %d ms: of %d copies, %d handed back to the queue, the others finished; %d prepare claims released",
                    (System.nanoTime() - start) / 1_000_000, copies, handed, released);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException ex) {
            // the database away: what is left goes back when the heartbeat lapses (or the lease)
            LOG.warnf("drain incomplete: %s", ex.toString());
        }
    }

    /** Whether the copy, at the rate it has had so far, ends before {@code end} (a copy of unknown size is given the grace). */
    static boolean canFinishBy(RunningFiles.Running r, long end) {
        ClaimedFile f = r.file();
        Long size = f.filesize() != null ? f.filesize() : f.sourceSize() != null && f.sourceSize() >= 0 ? f.sourceSize() : null;
        long now = System.nanoTime();
        long elapsed = now - r.startedNanos();
        long bytes = r.progress().bytes();
        if (size == null || bytes >= size || elapsed < TOO_EARLY_TO_TELL.toNanos()) {
            return true;
        }
        if (bytes == 0) {
            return false;
        }
        double etaNanos = (size - bytes) * (double) elapsed / bytes;
        return now + etaNanos * MARGIN < end;
    }

    /**
     * Puts the file back to the queue, then stops its copy (whose own writes its changed claim now refuses); false
     * when the file had finished or been cancelled meanwhile. Either way the copy is not looked at again.
     */
    private boolean handBack(RunningFiles.Running r, Set<Long> handedBack) {
        ClaimedFile f = r.file();
        handedBack.add(f.fileId());
        if (!changes.handedBack(f, "handed back to the queue: the scheduler replica moving it is shutting down")) {
            return false;
        }
        r.progress().abort(MoverException.Code.LEASE_EXPIRED, "the scheduler replica is shutting down; the file went back to the queue");
        return true;
    }
}
