package io.ferry.scheduler.engine;

import io.ferry.engineloop.EngineLoop;
import io.ferry.movers.Mover;
import io.ferry.movers.MoverException;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.db.Tx;
import io.ferry.scheduler.engine.tasks.MoverChoice;
import io.ferry.scheduler.loops.WokenBy;
import io.ferry.scheduler.probes.Probe;
import io.ferry.scheduler.probes.ProbeFiles;
import io.ferry.scheduler.probes.ProbeRows;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.Job;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.storage.SiteDirectory;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.JobInserts;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Link probes: each due probe's run creates its source file on the source SE (generated data of the probe's size,
 * with Ferry's own storage identity), then submits its copy as an ordinary one-file job of the probe's VO under the
 * probe activity (low fair-share weight, no retry); once the job ended the run's outcome and figures are recorded
 * and both files removed, whether the copy worked or not. A run whose source cannot be created is recorded with
 * the reason and the probe tries again an interval later. Due probes and ended runs are claimed with row locks that
 * other replicas skip, so each run starts once. Woken when a file changes state; else polls every {@code probes.poll}.
 */
@ApplicationScoped
public class ProbeLoop extends EngineLoop implements WokenBy {

    private static final Logger LOG = Logger.getLogger(ProbeLoop.class);

    /** Probes started, and ended runs settled, per pass. */
    static final int BATCH = 20;

    /** Who a probe job's submitter is, as jobs list it. */
    static final String SUBMITTER = "ferry-probe";

    private final SchedulerConfig config;
    private final Pool pool;
    private final SiteDirectory sites;
    private final MoverChoice movers;
    private final EngineWakeups wakeups;

    @Inject
    ProbeLoop(SchedulerConfig config, Pool pool, SiteDirectory sites, MoverChoice movers, EngineWakeups wakeups) {
        this.config = config;
        this.pool = pool;
        this.sites = sites;
        this.movers = movers;
        this.wakeups = wakeups;
    }

    @Override
    public String name() {
        return "probe-loop";
    }

    @Override
    public Set<EngineWakeups.Event> wokenBy() {
        return Set.of(EngineWakeups.Event.FILE_CHANGED);
    }

    @Override
    protected Duration period() {
        return config.probes().poll();
    }

    /** A file changes state many times a second under load: the probes need looking at far less often. */
    @Override
    protected Duration minimumGap() {
        return Duration.ofMillis(200);
    }

    @Override
    @WithSpan("probe-loop")
    protected void pass() {
        settleEnded();
        if (startDue() > 0) {
            wakeups.jobSubmitted();
        }
    }

    /** Ended runs: recorded, and their files removed (a removal that fails is tried again at the next pass). */
    private void settleEnded() {
        Tx.run(pool, c -> {
            for (ProbeRows.Ended e : ProbeRows.claimEnded(c, BATCH).await().atMost(Db.WAIT)) {
                String failure = null;
                try {
                    remove(e.files().source(), e.files().sourceBase());
                    remove(e.files().destination(), e.files().destinationBase());
                } catch (MoverException | RuntimeException ex) {
                    failure = "removing the probe's files failed (tried again): " + ex.getMessage();
                    LOG.warnf("probe run %d: %s", e.runId(), failure);
                }
                ProbeRows.ended(c, e, failure == null, failure).await().atMost(Db.WAIT);
            }
            ProbeRows.dropOrphans(c).await().atMost(Db.WAIT);
            return null;
        });
    }

    private void remove(String url, String base) throws MoverException {
        if (url == null) {
            return;
        }
        URI u = URI.create(url);
        movers.forUrls(u, u).remove(u, base == null ? null : URI.create(base), null);
    }

    /** Due probes started; answers how many became jobs. */
    private int startDue() {
        return Tx.run(pool, c -> {
            int started = 0;
            for (Probe p : ProbeRows.claimDue(c, BATCH).await().atMost(Db.WAIT)) {
                ProbeRows.scheduleNext(c, p.probeId(), p.intervalSeconds()).await().atMost(Db.WAIT);
                if (start(c, p)) {
                    started++;
                }
            }
            return started;
        });
    }

    private boolean start(SqlConnection c, Probe p) {
        UUID jobId = UUID.randomUUID();
        ProbeRows.ProbeFiles files;
        String adler32;
        try {
            files = ProbeFiles.place(p, sites.se(p.sourceSe()), sites.se(p.destSe()), config.probes().directory(), jobId);
            URI source = URI.create(files.source());
            Mover mover = movers.forUrls(source, URI.create(files.destination()));
            adler32 = mover.create(source, URI.create(files.sourceBase()), p.fileSize(), null);
        } catch (MoverException | RuntimeException e) {
            String why = "the probe's source could not be created: " + e.getMessage();
            LOG.infof("probe %d (%s -> %s): %s", p.probeId(), p.sourceSe(), p.destSe(), why);
            ProbeRows.notStarted(c, p, e instanceof MoverException m ? m.code().name() : "PROBE_FAILED", why).await().atMost(Db.WAIT);
            return false;
        }
        try {
            Job job = job(p, jobId);
            JobInserts.insert(c, job, List.of(new JobInserts.NewFile(0, config.probes().activity(), files.source(), files.destination(),
                    p.sourceSe(), p.destSe(), null, p.fileSize(), "ADLER32:" + adler32, null, FileState.SUBMITTED)),
                    JobInserts.claimBy(job, config.engine().undatedHorizon())).await().atMost(Db.WAIT);
            ProbeRows.started(c, p, jobId, files).await().atMost(Db.WAIT);
            return true;
        } catch (RuntimeException e) {
            try {
                remove(files.source(), files.sourceBase());
            } catch (MoverException | RuntimeException ignored) {
                // the pass fails anyway; the file stays below the probe directory
            }
            throw e;
        }
    }

    /** An ordinary job of the probe's VO: one file, no retry (a failure is a data point), at most an interval in the queue. */
    private static Job job(Probe p, UUID id) {
        Job job = new Job();
        job.jobId = id;
        job.vo = p.vo();
        job.userDn = SUBMITTER;
        job.state = JobState.SUBMITTED;
        job.priority = 3;
        job.verifyChecksum = "source";
        job.overwrite = true;
        job.retry = 0;
        job.retryDelay = 0;
        job.maxTimeInQueue = p.intervalSeconds();
        job.jobMetadata = "{\"probe_id\":" + p.probeId() + "}";
        // what the job runs with, as a submission's params would say it
        job.params = "{\"verify_checksum\":\"source\",\"overwrite\":true,\"retry\":0,\"max_time_in_queue\":\"" + p.intervalSeconds() + "s\"}";
        job.jobType = "N";
        job.sourceSe = p.sourceSe();
        job.destSe = p.destSe();
        job.submittedAt = OffsetDateTime.now(ZoneOffset.UTC);
        return job;
    }
}
