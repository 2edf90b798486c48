package io.ferry.scheduler.replicas;

import io.ferry.engineloop.EngineLoop;
import io.ferry.movers.MoverException;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.transitions.FileQueue;
import io.ferry.scheduler.transitions.JobEvents;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Keeps this replica's claims alive and watches the copies it runs: renews the leases of the files in hand (a file
 * no longer held — cancelled, or taken over after a lapse — is stopped), stops a copy that moved no byte for the
 * stall timeout (STALLED) or ran past its job's timeout (TIMEOUT), and stops a copy at once when its file is
 * cancelled (the cancel's NOTIFY reaches every replica).
 */
@ApplicationScoped
public class LeaseKeeper extends EngineLoop {

    private final SchedulerConfig config;
    private final FileQueue queue;
    private final RunningFiles running;
    private final EngineIdentity identity;
    private final JobEvents events;

    @Inject
    LeaseKeeper(SchedulerConfig config, FileQueue queue, RunningFiles running, EngineIdentity identity, JobEvents events) {
        this.config = config;
        this.queue = queue;
        this.running = running;
        this.identity = identity;
        this.events = events;
    }

    private Cancellable cancellations;

    @Override
    public String name() {
        return "lease-keeper";
    }

    @Override
    protected void beforeStart() {
        cancellations = events.canceled().subscribe()
                .with(ev -> running.abort(ev.file_id(), MoverException.Code.CANCELED, "canceled: " + ev.reason()));
    }

    @Override
    protected void afterStop() {
        if (cancellations != null) {
            cancellations.cancel();
        }
    }

    @Override
    protected Duration period() {
        Duration quarter = config.engine().lease().dividedBy(4);
        return quarter.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : quarter;
    }

    @Override
    protected void pass() {
        List<ClaimedFile> claims = running.all().stream().map(RunningFiles.Running::file).toList();
        Set<Long> held = queue.renew(claims, identity.id(), config.engine().lease()).await().atMost(Db.WAIT);
        for (Long id : claims.stream().map(ClaimedFile::fileId).toList()) {
            if (!held.contains(id)) {
                running.abort(id, MoverException.Code.CANCELED, "the file is no longer this scheduler's to move (canceled or taken over)");
            }
        }
        long now = System.nanoTime();
        for (RunningFiles.Running r : running.all()) {
            if (!r.moving()) {
                continue;
            }
            long idle = now - r.progress().lastProgressNanos();
            if (idle > config.engine().stallTimeout().toNanos()) {
                running.abort(r.file().fileId(), MoverException.Code.STALLED,
                        "no byte moved for " + Duration.ofNanos(idle).toSeconds() + " s (after " + r.progress().bytes() + " bytes)");
            } else if (r.timeoutSeconds() != null && r.timeoutSeconds() > 0 && now - r.startedNanos() > r.timeoutSeconds() * 1_000_000_000L) {
                running.abort(r.file().fileId(), MoverException.Code.TIMEOUT, "the job's timeout of " + r.timeoutSeconds() + " s passed");
            }
        }
    }
}
