package io.ferry.scheduler.engine.tasks;

import io.ferry.movers.CopyRequest;
import io.ferry.movers.Mover;
import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.movers.StorageCredentials;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.credentials.StorageTokenDeferred;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.replicas.RunningFiles;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SiteDirectory;
import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.tape.TapeRows;
import io.ferry.scheduler.tape.TapeStager;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.Guard;
import io.ferry.scheduler.transitions.StateStore;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URI;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The prepare of one claimed file, on a thread of the prepare loop's pool: for SEs that need it a stage request polled
 * until the file is on disk, then the source stat (exists, size, checksum when offered) and the destination checks
 * (exists/overwrite, {@link OverwriteOnDisk}, parent collections); its outcome written: READY, STAGING, deferred or failed.
 */
@ApplicationScoped
public class PrepareTask {

    private final SchedulerConfig config;
    private final Pool pool;
    private final StateStore outcomes;
    private final RunningFiles running;
    private final MoverChoice movers;
    private final TapeStager stager;
    private final SiteDirectory sites;
    private final FileCredentials credentials;
    private final StorageBoundary boundary;
    private final EngineWakeups wakeups;
    private final DestinationReport destinationReport;
    private final OverwriteOnDisk overwriteOnDisk;

    @Inject
    PrepareTask(SchedulerConfig config, Pool pool, StateStore outcomes, RunningFiles running, MoverChoice movers, TapeStager stager,
                SiteDirectory sites, FileCredentials credentials, StorageBoundary boundary, EngineWakeups wakeups,
                DestinationReport destinationReport, OverwriteOnDisk overwriteOnDisk) {
        this.config = config;
        this.pool = pool;
        this.outcomes = outcomes;
        this.running = running;
        this.movers = movers;
        this.stager = stager;
        this.sites = sites;
        this.credentials = credentials;
        this.boundary = boundary;
        this.wakeups = wakeups;
        this.destinationReport = destinationReport;
        this.overwriteOnDisk = overwriteOnDisk;
    }

    public void prepare(ClaimedFile f) {
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
            try {
                mover.prepareDestination(req);
            } catch (MoverException inPlace) {
                overwriteOnDisk.replaceOrRefuse(f, mover, req, inPlace);
                mover.prepareDestination(req);
            }
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
