package io.ferry.scheduler.engine.tasks;

import io.ferry.movers.CopyRequest;
import io.ferry.movers.Mover;
import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.movers.StorageCredentials;
import io.ferry.scheduler.credentials.StorageTokenDeferred;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.replicas.RunningFiles;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SiteDirectory;
import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.Guard;
import io.ferry.scheduler.transitions.StateStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URI;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The prepare of one claimed file, on a thread of the prepare loop's pool: the source stat (exists, size, checksum
 * when offered), a sync job's check for a destination already right ({@link SyncCheck}) and the destination checks (exists/overwrite, {@link OverwriteOnDisk}, parent collections); its
 * outcome written: READY, deferred or failed. Stage requests and their polls are {@link StageBatches}'.
 */
@ApplicationScoped
public class PrepareTask {

    private final StateStore outcomes;
    private final RunningFiles running;
    private final MoverChoice movers;
    private final SiteDirectory sites;
    private final FileCredentials credentials;
    private final StorageBoundary boundary;
    private final EngineWakeups wakeups;
    private final DestinationReport destinationReport;
    private final OverwriteOnDisk overwriteOnDisk;
    private final SyncCheck sync;

    @Inject
    PrepareTask(StateStore outcomes, RunningFiles running, MoverChoice movers, SiteDirectory sites, FileCredentials credentials,
                StorageBoundary boundary, EngineWakeups wakeups, DestinationReport destinationReport, OverwriteOnDisk overwriteOnDisk,
                SyncCheck sync) {
        this.outcomes = outcomes;
        this.running = running;
        this.movers = movers;
        this.sites = sites;
        this.credentials = credentials;
        this.boundary = boundary;
        this.wakeups = wakeups;
        this.destinationReport = destinationReport;
        this.overwriteOnDisk = overwriteOnDisk;
        this.sync = sync;
    }

    /**
     * Prepares a file whose source needs no stage request, or whose stage {@link StageBatches} saw on disk: source
     * stat and destination checks, its outcome written.
     */
    public void prepare(ClaimedFile f) {
        running.add(f, false);
        OffsetDateTime started = started(f);
        Mover mover = null;
        CopyRequest req = null;
        try {
            // before every touch of storage: the VO's rights may have changed since submission
            StorageBoundary.Authorized allowed = boundary.authorize(f, "prepare");
            SchedulingInputs.Se source = sites.se(f.sourceSe());
            if (source != null && source.needsPrepare() && !source.baseUrls().containsKey("tape")) {
                throw new MoverException(MoverException.Code.STAGING_FAILED, "prepare",
                        source.name() + " needs a prepare step but has no 'tape' base URL (WLCG Tape REST API)");
            }
            URI src = allowed.source().toUri();
            StorageCredentials creds = credentials.of(f, src, allowed.destination().toUri(), "prepare");
            mover = movers.forUrls(src, allowed.destination().toUri());
            req = CopyRequests.of(f, allowed, 1, source, sites.se(f.destSe()), creds);
            SourceStat stat = mover.stat(req);
            Mover.checkSource(req, stat);
            String alreadyThere = sync.alreadyThere(f, mover, req, stat);
            if (alreadyThere != null) {
                if (outcomes.alreadyThere(f, alreadyThere)) {
                    // it left the link's prepare budget without becoming READY: the next files need not wait for a tick
                    wakeups.preparedPoolShrank();
                }
                return;
            }
            try {
                mover.prepareDestination(req);
            } catch (MoverException inPlace) {
                overwriteOnDisk.replaceOrRefuse(f, mover, req, inPlace);
                mover.prepareDestination(req);
            }
            if (outcomes.prepared(f, stat)) {
                wakeups.filePrepared(f.sourceSe(), f.destSe());
            }
        } catch (StorageTokenDeferred | MoverException | RuntimeException e) {
            settle(f, started, e, mover, req);
        } finally {
            running.remove(f);
        }
    }

    /** When the file's prepare began: its first claim for it, or now. */
    static OffsetDateTime started(ClaimedFile f) {
        return f.prepareStartedAt() != null ? f.prepareStartedAt() : OffsetDateTime.now(ZoneOffset.UTC);
    }

    /**
     * Writes the outcome of a prepare that could not go on: deferred when the file's storage token cannot be had
     * now, else a failed attempt (retried as its job allows).
     */
    void settle(ClaimedFile f, OffsetDateTime started, Exception e, Mover mover, CopyRequest req) {
        if (e instanceof StorageTokenDeferred deferred) {
            outcomes.deferred(f, Guard.PREPARING, deferred.delay(), deferred.getMessage());
            return;
        }
        MoverException failure = e instanceof MoverException m ? m
                : new MoverException(MoverException.Code.CONNECTION_RESET, "prepare", "prepare failed: " + e);
        if (e instanceof MoverException m) {
            destinationReport.afterRefusal(f, mover, req, m);
        }
        outcomes.failed(f, Guard.PREPARING, f.attempts() + 1, failure, 0, null,
                AttemptTimes.prepare(started, OffsetDateTime.now(ZoneOffset.UTC)));
    }
}
