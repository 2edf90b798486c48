package io.ferry.scheduler.replicas;

import io.ferry.movers.MoverException;
import io.ferry.movers.TransferProgress;
import io.ferry.scheduler.queue.ClaimedFile;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The files this replica is preparing or moving right now, with their progress: what its leases cover. */
@ApplicationScoped
public class RunningFiles {

    /** One file in hand: since when (nanoTime), its progress (moves only), its job's timeout in seconds if any. */
    public record Running(ClaimedFile file, long startedNanos, TransferProgress progress, Integer timeoutSeconds, boolean moving) {
    }

    private final Map<Long, Running> running = new ConcurrentHashMap<>();

    public TransferProgress add(ClaimedFile f, boolean moving) {
        TransferProgress p = new TransferProgress();
        running.put(f.fileId(), new Running(f, System.nanoTime(), p, f.timeout(), moving));
        return p;
    }

    /**
     * Forgets this claim of the file, not a later one: a replica that paused past its heartbeat may have claimed the
     * file again while the old attempt's thread was still unwinding, and that thread must not drop the new entry
     * (its lease would then go unrenewed).
     */
    public void remove(ClaimedFile f) {
        running.computeIfPresent(f.fileId(), (id, r) -> r.file().claimEpoch() == f.claimEpoch() ? null : r);
    }

    public List<Long> ids() {
        return new ArrayList<>(running.keySet());
    }

    public List<Running> all() {
        return new ArrayList<>(running.values());
    }

    /** Stops the file's copy if this replica runs it. */
    public void abort(long fileId, MoverException.Code code, String reason) {
        Running r = running.get(fileId);
        if (r != null) {
            r.progress().abort(code, reason);
        }
    }
}
