package io.ferry.scheduler.engine.tasks;

import io.ferry.movers.CopyRequest;
import io.ferry.movers.CopyResult;
import io.ferry.movers.Mover;
import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.movers.StorageCredential;
import io.ferry.movers.TransferProgress;
import io.ferry.scheduler.credentials.StorageTokenDeferred;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.links.StreamAdvice;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.replicas.RunningFiles;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SiteDirectory;
import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.tape.StageReleases;
import io.ferry.scheduler.tape.TapeRows;
import io.ferry.scheduler.transitions.Guard;
import io.ferry.scheduler.transitions.StateStore;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * The copy of one claimed file, on a thread of the transfer loop's pool: its streams, the storage boundary checked again,
 * the request and credentials, its job's and link's rate caps ({@link RateCaps}), the mover's copy (watched by the lease keeper through {@link RunningFiles}), and its
 * outcome written: finished (or on to ARCHIVING), failed, cancelled or deferred; a staged source is released after.
 */
@ApplicationScoped
public class TransferTask {

    private final Pool pool;
    private final StateStore outcomes;
    private final RunningFiles running;
    private final StageReleases stageReleases;
    private final MoverChoice movers;
    private final SiteDirectory sites;
    private final FileCredentials credentials;
    private final StorageBoundary boundary;
    private final StreamAdvice advice;
    private final DestinationReport destinationReport;
    private final RateCaps rateCaps;

    @Inject
    TransferTask(Pool pool, StateStore outcomes, RunningFiles running, StageReleases stageReleases, MoverChoice movers,
                 SiteDirectory sites, FileCredentials credentials, StorageBoundary boundary, StreamAdvice advice,
                 DestinationReport destinationReport, RateCaps rateCaps) {
        this.pool = pool;
        this.outcomes = outcomes;
        this.running = running;
        this.stageReleases = stageReleases;
        this.movers = movers;
        this.sites = sites;
        this.credentials = credentials;
        this.boundary = boundary;
        this.advice = advice;
        this.destinationReport = destinationReport;
        this.rateCaps = rateCaps;
    }

    /** Moves the file and writes its outcome; answers a {@link System#nanoTime} no earlier than the outcome's commit. */
    public long move(ClaimedFile f, Integer linkStreams) {
        TransferProgress progress = running.add(f, true);
        OffsetDateTime start = OffsetDateTime.now(ZoneOffset.UTC);
        int streams = 1;
        AttemptTimes times = new AttemptTimes(f.prepareStartedAt(), f.preparedAt(), start, null, null, null);
        StorageBoundary.Authorized allowed = null;
        StorageCredential sourceCredential = null;
        Mover mover = null;
        CopyRequest req = null;
        try {
            streams = streams(f, linkStreams);
            // again, just before the copy: rights may have been taken away since the file was prepared
            allowed = boundary.authorize(f, "transfer");
            mover = movers.forUrls(allowed.source().toUri(), allowed.destination().toUri());
            req = CopyRequests.of(f, allowed, streams, sites.se(f.sourceSe()), sites.se(f.destSe()), credentials.of(f, allowed.source().toUri(), allowed.destination().toUri(), "transfer"));
            sourceCredential = req.credentials().source();
            SourceStat stat = new SourceStat(f.sourceSize() == null ? -1 : f.sourceSize(), f.sourceRanges(), null);
            CopyResult r;
            try (RateCaps.Held caps = rateCaps.hold(f)) {
                if (req.thirdPartyCopy()) {
                    caps.awaitThirdPartyRoom(progress);
                }
                r = mover.transfer(req.withRateLimit(caps.limit()), stat, progress);
            }
            OffsetDateTime transferEnd = start.plusNanos(r.transferMillis() * 1_000_000);
            OffsetDateTime checksumEnd = transferEnd.plusNanos(r.checksumMillis() * 1_000_000);
            times = new AttemptTimes(f.prepareStartedAt(), f.preparedAt(), start, transferEnd, transferEnd, checksumEnd);
            double throughput = r.bytes() / Math.max(0.001, r.transferMillis() / 1000.0);
            return outcomes.finished(f, r.bytes(), r.streams(), throughput, times, archives(f));
        } catch (StorageTokenDeferred e) {
            outcomes.deferred(f, Guard.RUNNING, e.delay(), e.getMessage());
        } catch (MoverException e) {
            times = ended(times, e.phase());
            if (e.code() == MoverException.Code.CANCELED) {
                outcomes.canceledAttempt(f, progress.bytes(), streams, times, e.getMessage());
            } else {
                destinationReport.afterRefusal(f, mover, req, e);
                outcomes.failed(f, Guard.RUNNING, f.attempts(), e, progress.bytes(), streams, times);
            }
        } catch (RuntimeException e) {
            outcomes.failed(f, Guard.RUNNING, f.attempts(),
                    new MoverException(MoverException.Code.CONNECTION_RESET, "transfer", "transfer failed: " + e), progress.bytes(), streams,
                    ended(times, "transfer"));
        } finally {
            running.remove(f);
            if (allowed != null) {
                stageReleases.afterCopy(f, allowed.source().toUri(), sourceCredential);
            }
        }
        return System.nanoTime();
    }

    /** A copy to an SE with a Tape REST endpoint, for a job with archive_timeout: followed until on tape. */
    private boolean archives(ClaimedFile f) {
        SchedulingInputs.Se dest = sites.se(f.destSe());
        return dest != null && dest.baseUrls().containsKey("tape") && TapeRows.of(pool, f.fileId(), Db.WAIT).params().archive();
    }

    private static AttemptTimes ended(AttemptTimes t, String phase) {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        if ("checksum".equals(phase)) {
            return new AttemptTimes(t.prepareStarted(), t.prepareEnded(), t.transferStarted(), now, now, now);
        }
        return new AttemptTimes(t.prepareStarted(), t.prepareEnded(), t.transferStarted(), now, null, null);
    }

    /** The job's nostreams, else the link's, else 1 on one host, else tcp-profiles' advice (1 when it does not answer); 1–16. */
    private int streams(ClaimedFile f, Integer linkStreams) {
        if (f.nostreams() != null && f.nostreams() > 0) {
            return StreamAdvice.clamp(f.nostreams());
        }
        return advice.forCopy(f.sourceUrl(), f.destUrl(), f.sourceSe(), f.destSe(), linkStreams).await().atMost(Duration.ofSeconds(10)).streams();
    }
}
