package io.ferry.scheduler.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.model.FerryRoles;
import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.credentials.FileTokenRows;
import io.ferry.scheduler.credentials.JobTokens;
import io.ferry.scheduler.credentials.SubmitterTokenRequest;
import io.ferry.scheduler.credentials.SubmitterTokenRows;
import io.ferry.scheduler.credentials.delegation.DelegationService;
import io.ferry.scheduler.fts3.Fts3Time;
import io.ferry.scheduler.queue.FileState;
import io.ferry.scheduler.queue.Job;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.queue.TransferFile;
import io.ferry.scheduler.storage.StorageBoundary;
import io.ferry.scheduler.storage.StorageEndpoint;
import io.ferry.scheduler.storage.bans.BanService;
import io.ferry.scheduler.submission.JobWebhook;
import io.ferry.scheduler.submission.Submission;
import io.ferry.scheduler.transitions.CommittedBefore;
import io.ferry.scheduler.transitions.DirectoryExpansions;
import io.ferry.scheduler.transitions.JobEvents;
import io.ferry.scheduler.transitions.JobInserts;
import io.ferry.scheduler.transitions.StateChanges;
import io.ferry.scheduler.transitions.StateStore;
import io.ferry.scheduler.webhooks.WebhookVos;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Job submission and bookkeeping: submissions are checked against the registered SEs and the VO's rights on them
 * ({@link StorageBoundary}: Ferry never touches a URL outside them), each VO sees and cancels only its own jobs, and cancelling goes through {@link StateChanges}, as the engine's changes do.
 */
@ApplicationScoped
public class JobService {

    final CurrentCaller caller;

    final JobEvents events;

    final Pool pool;

    final LogicalSources logicalSources;

    final StorageBoundary boundary;

    final StateStore states;

    final JobTokens tokens;

    final DelegationService delegations;

    final SubmitterTokenRequest submitterToken;

    final BanService bans;

    final SchedulerConfig config;

    final WebhookVos webhooks;

    @Inject
    public JobService(
            CurrentCaller caller,
            JobEvents events,
            Pool pool,
            LogicalSources logicalSources,
            StorageBoundary boundary,
            StateStore states,
            JobTokens tokens,
            DelegationService delegations,
            SubmitterTokenRequest submitterToken,
            BanService bans,
            SchedulerConfig config,
            WebhookVos webhooks) {
        this.caller = caller;
        this.events = events;
        this.pool = pool;
        this.logicalSources = logicalSources;
        this.boundary = boundary;
        this.states = states;
        this.tokens = tokens;
        this.delegations = delegations;
        this.submitterToken = submitterToken;
        this.bans = bans;
        this.config = config;
        this.webhooks = webhooks;
    }

    /** Stores the job and its files in one transaction; answers the job id. */
    @WithSpan
    @WithSession
    public Uni<UUID> submit(JsonNode body) {
        return submit(body, null);
    }

    /**
     * As {@link #submit(JsonNode)}; {@code bearer}: the submitter's token if it authenticated with one. Where its
     * issuer exchanges tokens for the scheduler and files bring none, it is stored sealed for the engine to obtain
     * theirs from ({@link SubmitterTokenRequest}); the issuer is not asked here.
     */
    @WithSpan
    @WithSession
    public Uni<UUID> submit(JsonNode body, String bearer) {
        Submission parsed = Submission.parse(body);
        String vo = requireVo();
        UUID id = parsed.jobId(vo);
        JobWebhook webhook = JobWebhook.read(body.path("params").get("webhook"), new ArrayList<>());
        // a certificate submission runs with the caller's delegated proxy: it must be there (419 otherwise, as in FTS3)
        return webhooks.checkSubmission(vo, webhook).chain(allowed -> delegations.forSubmission()).flatMap(credId -> StorageEndpoint.<StorageEndpoint>listAll().flatMap(endpoints -> logicalSources.resolve(parsed, endpoints).flatMap(s -> {
            List<StorageBoundary.CheckedFile> checked = boundary.checkSubmission(s, endpoints, vo);
            List<JobInserts.NewFile> files = new ArrayList<>(s.files().size());
            OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
            for (int i = 0; i < s.files().size(); i++) {
                Submission.FileRequest f = s.files().get(i);
                StorageBoundary.CheckedFile c = checked.get(i);
                // job id, VO, priority and submission time are the job's; JobInserts takes them from it.
                // Only canonical URLs are stored: they are what the engine sends to storage.
                String alternatives = c.sources().size() > 1
                        ? toJson(c.sources().subList(1, c.sources().size()).stream().map(Object::toString).toList()) : null;
                // a multihop job's later hops wait until the hop before them finished (FTS3's NOT_USED)
                FileState state = s.multihop() && i > 0 ? FileState.NOT_USED : FileState.SUBMITTED;
                files.add(new JobInserts.NewFile(i, f.activity(), c.sources().get(0).toString(), c.destination().toString(), c.sourceSes().get(0),
                        c.destSe(), alternatives, f.filesize(), f.checksum(), f.metadata(), state, f.scitag(), f.tape()));
            }
            Job job = new Job();
            job.jobId = id;
            job.vo = vo;
            job.userDn = caller.subject();
            job.state = JobState.SUBMITTED;
            job.priority = s.priority();
            job.verifyChecksum = s.verifyChecksum();
            job.overwrite = s.overwrite();
            job.retry = s.retry();
            job.retryDelay = s.retryDelay();
            job.maxTimeInQueue = s.maxTimeInQueue();
            job.deadline = s.deadline();
            job.timeout = s.timeout();
            job.nostreams = s.nostreams();
            job.jobMetadata = s.jobMetadata();
            job.params = s.params();
            job.jobType = s.multihop() ? "H" : "N";
            job.overwriteHop = s.overwriteHop();
            // a chain goes from its first hop's source to its last hop's destination (FTS3's source_se, dest_se)
            job.sourceSe = s.multihop() ? files.get(0).sourceSe() : single(files.stream().map(JobInserts.NewFile::sourceSe).toList());
            job.destSe = s.multihop() ? files.get(files.size() - 1).destSe() : single(files.stream().map(JobInserts.NewFile::destSe).toList());
            job.submittedAt = now;
            job.credId = credId;
            JobTokens.Rows sealed = tokens.seal(id, s.files(), checked);
            Optional<SubmitterTokenRequest.Rows> fromSubmitter = submitterToken.of(id, caller.caller(), bearer, s.files(), checked, endpoints);
            job.hasTokens = !sealed.isEmpty() || fromSubmitter.isPresent();
            // each SE once: a big job names the same few SEs for thousands of files
            Set<String> ses = new LinkedHashSet<>();
            files.forEach(f -> {
                ses.add(f.sourceSe());
                ses.add(f.destSe());
            });
            checked.forEach(c -> ses.addAll(c.sourceSes()));
            // a directory job's files come once the engine listed its tree: only its request is stored now
            Optional<DirectoryExpansions.Request> directory = DirectoryJobs.request(id, vo, s.files().get(0), checked.get(0));
            List<JobInserts.NewFile> fileRows = directory.isPresent() ? List.of() : files;
            return bans.checkSubmission(vo, ses).flatMap(unbanned -> pool.withTransaction(c -> JobInserts.insert(c, job, fileRows, JobInserts.claimBy(job, config.engine().undatedHorizon()))
                    .call(inserted -> inserted && directory.isPresent() ? DirectoryExpansions.store(c, directory.get()) : Uni.createFrom().voidItem())
                    .flatMap(stored -> stored
                    ? FileTokenRows.insert(c, id, sealed.tokens(), sealed.uses())
                    .chain(x -> fromSubmitter.map(r -> SubmitterTokenRows.insert(c, id, r.sealed(), r.issuer(), r.expiresAt(), r.sides()))
                            .orElseGet(() -> Uni.createFrom().voidItem()))
                    .replaceWith(true)
                    : Uni.createFrom().item(false))).map(stored -> {
                if (!stored) {
                    throw ProblemException.conflict("JOB_EXISTS", "a job with id " + id + " (sid " + s.sid() + ") was already submitted");
                }
                return id;
            }));
        })));
    }

    /**
     * What {@code GET /jobs} asks for, as FTS3 reads it: without {@code states} only unfinished jobs; {@code since}
     * (FTS3's {@code time_window}) keeps finished jobs only if they finished since then; {@code sourceSe} and
     * {@code destSe} are SE names or FTS3's {@code scheme://host[:port]} form, which stands for each SE with a base URL there.
     */
    public record Listing(List<String> states, String voName, String userDn, String sourceSe, String destSe,
                          OffsetDateTime since, int limit) {
    }

    /** Jobs the caller may see, newest first: its own VO's, or any VO for administrators. */
    @WithSession
    public Uni<List<Job>> list(Listing l) {
        return StorageEndpoint.<StorageEndpoint>listAll().flatMap(endpoints -> {
            StringBuilder q = new StringBuilder("1 = 1");
            Map<String, Object> p = new HashMap<>();
            if (!caller.hasRole(FerryRoles.TRANSFER_ADMIN)) {
                q.append(" and vo = :vo");
                p.put("vo", requireVo());
            } else if (l.voName() != null) {
                q.append(" and vo = :vo");
                p.put("vo", l.voName());
            }
            if (l.states().isEmpty()) {
                q.append(" and finishedAt is null");
            } else {
                q.append(" and state in :states");
                p.put("states", l.states().stream().map(JobState::valueOf).toList());
            }
            if (l.since() != null) {
                q.append(" and (finishedAt is null or finishedAt >= :since)");
                p.put("since", l.since());
            }
            if (l.userDn() != null) {
                q.append(" and userDn = :dn");
                p.put("dn", l.userDn());
            }
            if (l.sourceSe() != null) {
                q.append(" and sourceSe in :src");
                p.put("src", StorageEndpoint.seNames(l.sourceSe(), endpoints));
            }
            if (l.destSe() != null) {
                q.append(" and destSe in :dst");
                p.put("dst", StorageEndpoint.seNames(l.destSe(), endpoints));
            }
            return Job.<Job>find(q + " order by submittedAt desc", p).page(0, l.limit()).list();
        });
    }

    /** The job, if it exists and the caller may see it (another VO's job is reported as not found). */
    @WithSession
    public Uni<Optional<Job>> find(UUID id) {
        return Job.<Job>findById(id).map(j -> Optional.ofNullable(j).filter(this::visible));
    }

    @WithSession
    public Uni<List<TransferFile>> files(UUID id) {
        return visibleJob(id).flatMap(j -> TransferFile.<TransferFile>list("jobId = ?1 order by fileIndex", id));
    }

    /**
     * What an event stream of the job starts with: each file's state, and the transactions that it holds (taken
     * first, so every change they hold is in the files read after).
     */
    @WithSession
    public Uni<JobEvents.Snapshot> eventSnapshot(UUID id) {
        return pool.query(JobEvents.CURRENT_SNAPSHOT).execute()
                .map(rows -> CommittedBefore.parse(rows.iterator().next().getString(0)))
                .flatMap(committed -> visibleJob(id).flatMap(j -> TransferFile.<TransferFile>list("jobId = ?1 order by fileIndex", id)
                        .map(files -> new JobEvents.Snapshot(files.stream().map(f -> snapshotEvent(j, f)).toList(), committed))));
    }

    private static JobEvents.FileEvent snapshotEvent(Job j, TransferFile f) {
        return new JobEvents.FileEvent(j.jobId.toString(), f.fileId, f.state, j.state, f.reason,
                (f.finishTime != null ? f.finishTime : f.submittedAt).toString());
    }

    /** A file's failed attempts that were retried, oldest first (FTS3's retries call). */
    @WithSession
    public Uni<List<Map<String, Object>>> retries(UUID id, long fileId) {
        return visibleJob(id).flatMap(j -> TransferFile.<TransferFile>find("jobId = ?1 and fileId = ?2", id, fileId).firstResult())
                .flatMap(f -> {
                    if (f == null) {
                        throw ProblemException.notFound("file " + fileId + " of job " + id);
                    }
                    return pool.preparedQuery("SELECT attempt, datetime, reason, error_code, error_phase FROM file_retry WHERE file_id = $1 "
                            + "ORDER BY attempt").execute(Tuple.of(fileId)).map(rows -> {
                        List<Map<String, Object>> out = new ArrayList<>();
                        for (Row r : rows) {
                            Map<String, Object> m = new LinkedHashMap<>();
                            m.put("attempt", r.getInteger(0));
                            m.put("datetime", Fts3Time.format(r.getOffsetDateTime(1)));
                            m.put("reason", r.getString(2));
                            m.put("error_code", r.getString(3));
                            m.put("error_phase", r.getString(4));
                            out.add(m);
                        }
                        return out;
                    });
                });
    }

    /** Cancels every unfinished file of the job; a finished job is left as it is. */
    @WithSpan
    public Uni<Job> cancel(UUID id) {
        return find(id).flatMap(j -> {
            if (j.isEmpty()) {
                throw ProblemException.notFound("job " + id);
            }
            return states.cancel(id, null, "canceled by " + caller.subject(), unknown -> null);
        }).flatMap(x -> find(id)).map(Optional::orElseThrow);
    }

    /**
     * FTS3's priority change: the job's and its unfinished files' (the queues order by the files' own), in one
     * transaction; false, and nothing changed, when the job is over or not visible.
     */
    @WithSpan
    public Uni<Boolean> reprioritise(UUID id, int priority) {
        return find(id).flatMap(j -> {
            if (j.isEmpty() || j.get().state.terminal()) {
                return Uni.createFrom().item(false);
            }
            return states.reprioritise(id, priority);
        });
    }

    /** Cancels the given unfinished files of the job; answers them. */
    @WithSpan
    public Uni<List<TransferFile>> cancelFiles(UUID id, List<Long> fileIds) {
        return find(id).flatMap(j -> {
            if (j.isEmpty()) {
                throw ProblemException.notFound("job " + id);
            }
            return states.cancel(id, fileIds, "canceled by " + caller.subject(),
                    unknown -> ProblemException.notFound("file(s) " + unknown + " of job " + id));
        }).flatMap(x -> files(id)).map(files -> files.stream().filter(f -> fileIds.contains(f.fileId)).toList());
    }

    private Uni<Job> visibleJob(UUID id) {
        return Job.<Job>findById(id).map(j -> {
            if (j == null || !visible(j)) {
                throw ProblemException.notFound("job " + id);
            }
            return j;
        });
    }

    private boolean visible(Job j) {
        return caller.hasRole(FerryRoles.TRANSFER_ADMIN) || j.vo.equals(caller.vo());
    }

    private String requireVo() {
        String vo = caller.vo();
        if (vo == null || vo.isBlank()) {
            throw ProblemException.forbidden("the token names no VO (claim 'vo'), so it cannot own jobs");
        }
        return vo;
    }

    private static String single(List<String> values) {
        LinkedHashSet<String> distinct = new LinkedHashSet<>(values);
        return distinct.size() == 1 ? distinct.iterator().next() : null;
    }

    private static String toJson(List<String> urls) {
        StringBuilder b = new StringBuilder("[");
        for (String u : urls) {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append('"').append(u.replace("\\", "\\\\").replace("\"", "\\\"")).append('"');
        }
        return b.append(']').toString();
    }
}
