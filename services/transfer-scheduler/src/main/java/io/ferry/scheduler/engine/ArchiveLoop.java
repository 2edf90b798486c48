package io.ferry.scheduler.engine;

import io.ferry.engineloop.EngineLoop;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageCredential;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.credentials.StorageTokenDeferred;
import io.ferry.scheduler.engine.tasks.FileCredentials;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.loops.WokenBy;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SiteDirectory;
import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.tape.TapeStager;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.FileQueue;
import io.ferry.scheduler.transitions.StateStore;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * FTS3's archive monitoring: files copied to a tape SE for a job with {@code archive_timeout} are ARCHIVING until
 * Tape REST's {@code archiveinfo} says they are on tape (FINISHED), the SE reports an error for them, or the timeout,
 * counted from the copy's end, passed (FAILED, FTS3's "archive timeout has been exceeded"). One question per SE and
 * credential for all its due files; a question that fails is asked again at the next poll (FTS3's soft failure).
 * Woken when a copy goes ARCHIVING; else polls every {@code stage-poll}.
 */
@ApplicationScoped
public class ArchiveLoop extends EngineLoop implements WokenBy {

    private static final Logger LOG = Logger.getLogger(ArchiveLoop.class);

    /** Files asked about per pass. */
    static final int BATCH = 200;

    private final SchedulerConfig config;
    private final Pool pool;
    private final StateStore outcomes;
    private final TapeStager stager;
    private final SiteDirectory sites;
    private final FileCredentials credentials;
    private final StorageBoundary boundary;

    @Inject
    ArchiveLoop(SchedulerConfig config, Pool pool, StateStore outcomes, TapeStager stager, SiteDirectory sites,
                FileCredentials credentials, StorageBoundary boundary) {
        this.config = config;
        this.pool = pool;
        this.outcomes = outcomes;
        this.stager = stager;
        this.sites = sites;
        this.credentials = credentials;
        this.boundary = boundary;
    }

    @Override
    public String name() {
        return "archive-poll";
    }

    @Override
    public Set<EngineWakeups.Event> wokenBy() {
        return Set.of(EngineWakeups.Event.FILE_ARCHIVING);
    }

    @Override
    protected Duration period() {
        return config.engine().stagePoll();
    }

    /** One question per SE and credential. */
    private record Question(String tape, StorageCredential credential) {
    }

    private record Asked(ClaimedFile file, URI destination) {
    }

    @Override
    @WithSpan("archive-poll")
    protected void pass() {
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        Map<Question, List<Asked>> questions = new LinkedHashMap<>();
        for (FileQueue.Archiving a : FileQueue.dueArchiving(pool, BATCH, config.engine().stagePoll(), Db.WAIT)) {
            ClaimedFile f = a.file();
            if (a.copiedAt() != null && a.copiedAt().plusSeconds(a.params().archiveTimeout()).isBefore(now)) {
                outcomes.archiveFailed(f, MoverException.Code.TIMEOUT, "archive timeout has been exceeded");
                continue;
            }
            SchedulingInputs.Se dest = sites.se(f.destSe());
            String tape = dest == null ? null : dest.baseUrls().get("tape");
            if (tape == null) {
                outcomes.archiveFailed(f, MoverException.Code.HTTP_ERROR, "ARCHIVING: " + f.destSe() + " has no 'tape' base URL any more");
                continue;
            }
            try {
                StorageBoundary.Authorized allowed = boundary.authorize(f, "archive");
                URI destination = allowed.destination().toUri();
                StorageCredential credential = credentials.of(f, allowed.source().toUri(), destination, "archive").destination();
                questions.computeIfAbsent(new Question(tape, credential), q -> new ArrayList<>()).add(new Asked(f, destination));
            } catch (StorageTokenDeferred e) {
                // asked again at the next poll, once the issuer answers
                LOG.debugf("archiveinfo of file %d deferred: %s", f.fileId(), e.getMessage());
            } catch (MoverException e) {
                outcomes.archiveFailed(f, e.code(), "ARCHIVING: " + e.getMessage());
            }
        }
        questions.forEach(this::ask);
    }

    private void ask(Question q, List<Asked> files) {
        Map<String, TapeStager.Locality> answer;
        try {
            answer = stager.archiveInfo(q.tape(), files.stream().map(Asked::destination).toList(), q.credential());
        } catch (MoverException e) {
            LOG.warnf("archiveinfo at %s failed, asked again at the next poll: %s", q.tape(), e.getMessage());
            return;
        }
        for (Asked a : files) {
            TapeStager.Locality l = answer.get(a.destination().getPath());
            if (l == null) {
                continue;
            }
            if (l.error() != null) {
                outcomes.archiveFailed(a.file(), MoverException.Code.HTTP_ERROR, "ARCHIVING: " + l.error());
            } else if (l.onTape()) {
                outcomes.archived(a.file());
            }
        }
    }
}
