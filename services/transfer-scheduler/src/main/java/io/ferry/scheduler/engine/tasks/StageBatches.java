package io.ferry.scheduler.engine.tasks;

import io.ferry.movers.BearerToken;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageCredential;
import io.ferry.movers.StorageCredentials;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.credentials.StorageTokenDeferred;
import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.replicas.RunningFiles;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SiteDirectory;
import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.tape.TapeRows;
import io.ferry.scheduler.tape.TapeStager;
import io.ferry.scheduler.transitions.StateStore;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.net.URI;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Stage requests as FTS3 sends them, many files at once: the files a prepare pass took from one tape SE go out in
 * requests of up to {@code stage-batch} files (one per credential the files present there), and the files of one
 * request are polled with one question for all of them. A file the SE reports on disk goes on to {@link PrepareTask};
 * one that is not yet waits for the next poll; one the SE failed, or that outlasted its job's {@code bring_online}
 * (cancelled at the SE), fails. Files whose SE and job need no staging go straight to {@link PrepareTask}.
 */
@ApplicationScoped
public class StageBatches {

    /** A file on its way into a stage request or a poll, with what it presents at the tape endpoint. */
    private record Staged(ClaimedFile file, OffsetDateTime started, URI source, StorageCredential credential, TapeRows.Staging row) {
    }

    private final SchedulerConfig config;
    private final Pool pool;
    private final StateStore outcomes;
    private final RunningFiles running;
    private final TapeStager stager;
    private final SiteDirectory sites;
    private final FileCredentials credentials;
    private final StorageBoundary boundary;
    private final PrepareTask task;

    @Inject
    StageBatches(SchedulerConfig config, Pool pool, StateStore outcomes, RunningFiles running, TapeStager stager, SiteDirectory sites,
                 FileCredentials credentials, StorageBoundary boundary, PrepareTask task) {
        this.config = config;
        this.pool = pool;
        this.outcomes = outcomes;
        this.running = running;
        this.stager = stager;
        this.sites = sites;
        this.credentials = credentials;
        this.boundary = boundary;
        this.task = task;
    }

    /**
     * Files of one source SE with a Tape REST endpoint, claimed for preparing: staged in batches when the SE needs a
     * prepare step or their job asks for staging ({@code bring_online}, {@code copy_pin_lifetime}); the others are
     * handed to {@code prepareEach}.
     */
    public void request(List<ClaimedFile> files, Consumer<ClaimedFile> prepareEach) {
        SchedulingInputs.Se source = sites.se(files.get(0).sourceSe());
        String tape = source == null ? null : source.baseUrls().get("tape");
        Map<Long, TapeRows.Staging> rows = TapeRows.ofFiles(pool, files.stream().map(ClaimedFile::fileId).toList(), Db.WAIT);
        // one request per credential: each request is sent with the token its files present at the SE
        Map<String, List<Staged>> byCredential = new LinkedHashMap<>();
        for (ClaimedFile f : files) {
            TapeRows.Staging row = rows.get(f.fileId());
            if (tape == null || row == null || !(source.needsPrepare() || row.params().staging())) {
                prepareEach.accept(f);
                continue;
            }
            Staged s = authorized(f, row);
            if (s != null) {
                byCredential.computeIfAbsent(key(s.credential()), k -> new ArrayList<>()).add(s);
            }
        }
        int batch = Math.max(1, config.engine().stageBatch());
        for (List<Staged> sameCredential : byCredential.values()) {
            for (int from = 0; from < sameCredential.size(); from += batch) {
                List<Staged> chunk = sameCredential.subList(from, Math.min(sameCredential.size(), from + batch));
                try {
                    String id = stager.request(tape, chunk.stream()
                            .map(s -> new TapeStager.Stage(s.source(), s.row().params().diskLifetime(), s.row().metadata())).toList(),
                            chunk.get(0).credential());
                    OffsetDateTime next = OffsetDateTime.now(ZoneOffset.UTC).plus(config.engine().stagePoll());
                    chunk.forEach(s -> outcomes.staging(s.file(), id, next));
                } catch (MoverException | RuntimeException e) {
                    chunk.forEach(s -> task.settle(s.file(), s.started(), e, null, null));
                } finally {
                    chunk.forEach(s -> running.remove(s.file()));
                }
            }
        }
    }

    /**
     * Files claimed for a poll of their stage request, all of one request: one question to the SE for all of them.
     * Those on disk are handed to {@code prepareEach}.
     */
    public void poll(List<ClaimedFile> files, Consumer<ClaimedFile> prepareEach) {
        String requestId = files.get(0).stageRequest();
        SchedulingInputs.Se source = sites.se(files.get(0).sourceSe());
        String tape = source == null ? null : source.baseUrls().get("tape");
        if (tape == null) {
            MoverException gone = new MoverException(MoverException.Code.STAGING_FAILED, "prepare",
                    files.get(0).sourceSe() + " has no 'tape' base URL (WLCG Tape REST API) any more");
            files.forEach(f -> task.settle(f, PrepareTask.started(f), gone, null, null));
            return;
        }
        Map<Long, TapeRows.Staging> rows = TapeRows.ofFiles(pool, files.stream().map(ClaimedFile::fileId).toList(), Db.WAIT);
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        List<Staged> asking = new ArrayList<>();
        List<Staged> late = new ArrayList<>();
        for (ClaimedFile f : files) {
            TapeRows.Staging row = rows.get(f.fileId());
            Staged s = row == null ? null : authorized(f, row);
            if (s == null) {
                continue;
            }
            int bringOnline = row.params().bringOnline();
            boolean outlasted = bringOnline > 0 && row.stagingStart() != null && row.stagingStart().plusSeconds(bringOnline).isBefore(now);
            (outlasted ? late : asking).add(s);
        }
        if (!late.isEmpty()) {
            // FTS3's reason, and like FTS3 retryable (a retry stages again); the SE stops recalling files nobody will copy
            stager.cancelQuietly(tape, requestId, late.stream().map(Staged::source).toList(), late.get(0).credential());
            MoverException timeout = new MoverException(MoverException.Code.TIMEOUT, "prepare", "bring-online timeout has been exceeded");
            late.forEach(s -> settled(s, timeout));
        }
        if (asking.isEmpty()) {
            return;
        }
        Map<String, TapeStager.Status> answer;
        try {
            answer = stager.poll(tape, requestId, asking.get(0).credential());
        } catch (MoverException | RuntimeException e) {
            asking.forEach(s -> settled(s, e));
            return;
        }
        OffsetDateTime next = OffsetDateTime.now(ZoneOffset.UTC).plus(config.engine().stagePoll());
        for (Staged s : asking) {
            TapeStager.Status status = answer.get(s.source().getPath());
            if (status == null) {
                settled(s, new MoverException(MoverException.Code.STAGING_FAILED, "prepare",
                        "the stage request does not list " + s.source().getPath()));
            } else if (status.error() != null) {
                settled(s, new MoverException(MoverException.Code.STAGING_FAILED, "prepare", "staging failed: " + status.error()));
            } else if (status.onDisk()) {
                running.remove(s.file());
                prepareEach.accept(s.file());
            } else {
                outcomes.stillStaging(s.file(), next);
                running.remove(s.file());
            }
        }
    }

    /**
     * The file in hand (its lease kept by {@link RunningFiles}) with its source and credential, after the storage
     * boundary allowed it again (the VO's rights may have changed since submission); null when it failed or was
     * deferred instead.
     */
    private Staged authorized(ClaimedFile f, TapeRows.Staging row) {
        running.add(f, false);
        OffsetDateTime started = PrepareTask.started(f);
        try {
            StorageBoundary.Authorized allowed = boundary.authorize(f, "prepare");
            URI src = allowed.source().toUri();
            StorageCredentials creds = credentials.of(f, src, allowed.destination().toUri(), "prepare");
            return new Staged(f, started, src, creds.source(), row);
        } catch (MoverException | StorageTokenDeferred | RuntimeException e) {
            task.settle(f, started, e, null, null);
            running.remove(f);
            return null;
        }
    }

    private void settled(Staged s, Exception e) {
        task.settle(s.file(), s.started(), e, null, null);
        running.remove(s.file());
    }

    /** What a request is sent with at the tape endpoint: the files' bearer token, else Ferry's own identity. */
    private static String key(StorageCredential credential) {
        return credential instanceof BearerToken token ? token.authorization() : "";
    }
}
