package io.ferry.scheduler.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.identity.model.FerryRoles;
import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.ApiPatterns;
import io.ferry.scheduler.fts3.Fts3Numbers;
import io.ferry.scheduler.fts3.Fts3Statuses;
import io.ferry.scheduler.queue.Job;
import io.ferry.scheduler.queue.JobState;
import io.ferry.scheduler.queue.TransferFile;
import io.ferry.scheduler.submission.Submission;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.JobEvents;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.jboss.resteasy.reactive.RestStreamElementType;

import java.io.IOException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * FTS3's job calls: submit, list, get (one or several), files, retries, cancel, and event streams. Reads need
 * {@code transfer:read} or {@code transfer:submit} (a VO's own jobs) or {@code transfer:admin} (every VO's);
 * submitting and cancelling need {@code transfer:submit} or {@code transfer:admin}.
 */
@Path("/jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobResource {

    private static final Pattern TIME_WINDOW = Pattern.compile("(\\d{1,6})(?::(\\d{1,4}))?");

    final JobService jobs;

    final EngineWakeups wakeups;

    final JobEvents events;

    final EventStreamLimits streams;

    final CurrentCaller caller;

    final ObjectMapper json;

    @Inject
    public JobResource(
            JobService jobs,
            EngineWakeups wakeups,
            JobEvents events,
            EventStreamLimits streams,
            CurrentCaller caller,
            ObjectMapper json) {
        this.jobs = jobs;
        this.wakeups = wakeups;
        this.events = events;
        this.streams = streams;
        this.caller = caller;
        this.json = json;
    }

    /**
     * Server-Sent Events of the job's files: first each file's current state, then every change as it commits
     * (on any scheduler replica). Beyond FTS3, which only offers polling. Unknown and other VOs' jobs give an
     * empty stream, which tells nothing about whether the job exists. A client (token subject) or replica with
     * as many streams open as it may is refused with 429 before the stream starts.
     */
    @GET
    @Path("{id}/events")
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    @Produces(MediaType.SERVER_SENT_EVENTS)
    @RestStreamElementType(MediaType.APPLICATION_JSON)
    public Multi<JobEvents.FileEvent> events(@PathParam("id") String id) {
        UUID job = uuid(id);
        Uni<Optional<Job>> lookup = jobs.find(job);
        return streams.open(caller.subject(), () -> lookup.onItem().transformToMulti(found -> found
                // The headers are out before the job is looked up: an unknown (or another VO's) job is an empty stream.
                .map(j -> events.follow(job, jobs.eventSnapshot(job)))
                .orElseGet(() -> Multi.createFrom().empty())));
    }

    /** The part of a submission the OpenAPI document describes (Submission.parse reads the rest): its files. */
    record SubmissionBody(@Schema(required = true, minItems = 1, maxItems = Submission.MAX_FILES) List<FileBody> files,
                          @Schema(type = SchemaType.OBJECT, nullable = true) Map<String, Object> params) {

        record FileBody(@Schema(required = true, minItems = 1) List<@NotBlank @Size(max = 4096) String> sources,
                        @Schema(required = true, minItems = 1) List<@NotBlank @Size(max = 4096) String> destinations,
                        @Schema(nullable = true, minimum = "0") Long filesize,
                        @Schema(nullable = true, maxLength = 100) String activity) {
        }
    }

    @POST
    @RolesAllowed({FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    @Consumes(MediaType.APPLICATION_JSON)
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SubmissionBody.class)))
    public Uni<Map<String, String>> submit(JsonNode body, @HeaderParam("Authorization") String authorization) {
        // the new files are committed: this replica's prepare loop need not wait for its next tick
        return jobs.submit(body, bearer(authorization)).invoke(id -> wakeups.jobSubmitted()).map(id -> Map.of("job_id", id.toString()));
    }

    /** The token of an {@code Authorization: Bearer …} header (the submitter's, kept sealed for storage tokens), else null. */
    private static String bearer(String authorization) {
        return authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7) ? authorization.substring(7).trim() : null;
    }

    /**
     * FTS3's job listing: unfinished jobs unless {@code state_in} names states; {@code time_window=H[:M]} keeps only
     * jobs finished within the last hours (and minutes); {@code fields=job_id,job_state} answers only those fields;
     * {@code user_dn}, {@code vo_name} (administrators), {@code source_se}/{@code dest_se} (SE names or FTS3's
     * {@code scheme://host}) filter.
     */
    @GET
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<List<JsonNode>> list(@Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.STATE_IN))
                                    @QueryParam("state_in") String stateIn, @QueryParam("vo_name") String voName,
                                    @QueryParam("user_dn") String userDn, @QueryParam("source_se") String sourceSe,
                                    @QueryParam("dest_se") String destSe,
                                    @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.TIME_WINDOW))
                                    @QueryParam("time_window") String timeWindow,
                                    @QueryParam("fields") String fields,
                                    @Parameter(allowEmptyValue = true, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "10000", defaultValue = "100"))
                                    @QueryParam("limit") @DefaultValue("100") int limit) {
        if (limit < 1 || limit > 10_000) {
            throw ProblemException.badRequest("limit", "between 1 and 10000");
        }
        List<String> states = stateIn == null || stateIn.isBlank() ? List.of()
                : Arrays.stream(stateIn.split(",")).map(String::trim).map(String::toUpperCase).toList();
        if (states.stream().anyMatch(s -> !JobState.NAMES.contains(s))) {
            throw ProblemException.badRequest("state_in", "states are " + JobState.NAMES);
        }
        OffsetDateTime since = timeWindow == null || timeWindow.isBlank() ? null
                : OffsetDateTime.now(ZoneOffset.UTC).minus(window(timeWindow));
        List<String> kept = fields == null || fields.isBlank() ? null
                : Arrays.stream(fields.split(",")).map(String::trim).filter(f -> !f.isEmpty()).toList();
        return jobs.list(new JobService.Listing(states, blankToNull(voName), blankToNull(userDn), blankToNull(sourceSe),
                blankToNull(destSe), since, limit)).map(l -> l.stream().map(j -> {
            ObjectNode view = json.valueToTree(JobViews.JobView.of(j));
            return (JsonNode) (kept == null ? view : view.retain(kept));
        }).toList());
    }

    /** FTS3's {@code time_window}: hours, optionally {@code :minutes}. */
    private static Duration window(String value) {
        Matcher m = TIME_WINDOW.matcher(value.trim());
        if (!m.matches()) {
            throw ProblemException.badRequest("time_window", "hours, or hours:minutes");
        }
        return Duration.ofHours(Long.parseLong(m.group(1))).plusMinutes(m.group(2) == null ? 0 : Long.parseLong(m.group(2)));
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    /**
     * One job, or several ({@code id1,id2}), each with FTS3's {@code http_status} ({@link Fts3Statuses}: a list,
     * 207 when some are unknown). With {@code files=file_state,dest_surl,...} (FTS3's bulk status, as Rucio's
     * conveyor and {@code easy.get_jobs_statuses(list_files=True)} poll) each job carries its files with those fields.
     */
    @GET
    @Path("{ids}")
    @APIResponse(responseCode = "200", description = "The job (one id), or each job's entry (several)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON))
    @APIResponse(responseCode = "207", description = "Several ids, some not found: each job's entry with its http_status, as FTS3 answers",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY)))
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<Response> get(@PathParam("ids") String ids, @QueryParam("files") String fileFields) {
        List<String> fields = fileFields == null ? null
                : Arrays.stream(fileFields.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        return perJob(ids, "/jobs/" + ids, (uuid, j) -> withFiles(JobViews.JobView.of(j), fields)
                .map(view -> Fts3Statuses.found(json, view, Fts3Statuses.OK, null)));
    }

    /**
     * FTS3's job modification, as Rucio's {@code update_priority} sends it: {@code {"params":{"priority":N}}} sets the
     * priority (1–5) of each job and its unfinished files, which the queues take highest first. A finished job is
     * left as it is ({@code 304 Not Modified} in its entry).
     */
    @POST
    @Path("{ids}")
    @APIResponse(responseCode = "200", description = "The job (one id), or each job's entry (several)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON))
    @APIResponse(responseCode = "207", description = "Several ids, some not found: each job's entry with its http_status, as FTS3 answers",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY)))
    @RolesAllowed({FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    @Consumes(MediaType.WILDCARD)
    @RequestBody(content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Modification.class)))
    public Uni<Response> modify(@PathParam("ids") String ids, String body) {
        Integer priority = priorityOf(body);
        return perJob(ids, "/jobs/" + ids, (uuid, j) -> (priority == null ? Uni.createFrom().item(!j.state.terminal())
                : jobs.reprioritise(uuid, priority)).flatMap(changed -> jobs.find(uuid).map(after -> Fts3Statuses.changed(json,
                JobViews.JobView.of(after.orElse(j)), changed ? Fts3Statuses.OK : Fts3Statuses.NOT_MODIFIED,
                changed ? null : "The job is in a terminal state"))));
    }

    /** The body {@link #priorityOf} reads, for the OpenAPI document. */
    record Modification(Params params) {

        record Params(@Schema(minimum = "1", maximum = "5", nullable = true) Integer priority) {
        }
    }

    /** {@code params.priority} of a modification body: null when absent, 400 when not a priority. */
    private Integer priorityOf(String body) {
        JsonNode parsed;
        try {
            parsed = body == null || body.isBlank() ? json.createObjectNode() : json.readTree(body);
        } catch (IOException e) {
            throw ProblemException.badRequest("body", "expected {\"params\": {\"priority\": 1..5}}");
        }
        JsonNode p = parsed.path("params").path("priority");
        if (p.isMissingNode() || p.isNull()) {
            return null;
        }
        String whole = Fts3Numbers.wholeNumberText(p);
        String text = whole != null ? whole : p.asText().trim();
        if (!(p.isNumber() || p.isTextual()) || !text.matches("[1-5]")) {
            throw ProblemException.badRequest("params.priority", "a whole number from 1 to 5");
        }
        return Integer.parseInt(text);
    }

    /** Runs {@code op} on each job the ids name (in order, so answers line up) and answers as FTS3 does. */
    private Uni<Response> perJob(String ids, String path, BiFunction<UUID, Job, Uni<ObjectNode>> op) {
        List<String> requested = Fts3Statuses.ids(ids);
        Uni<List<ObjectNode>> all = Uni.createFrom().item(new ArrayList<>());
        for (String id : requested) {
            all = all.flatMap(acc -> entry(id, op).map(e -> {
                acc.add(e);
                return acc;
            }));
        }
        return all.map(entries -> entries.isEmpty() ? Fts3Statuses.answer(json, List.of(Fts3Statuses.missing(json, ids)), false, path)
                : Fts3Statuses.answer(json, entries, requested.size() > 1, path));
    }

    private Uni<ObjectNode> entry(String id, BiFunction<UUID, Job, Uni<ObjectNode>> op) {
        UUID uuid;
        try {
            uuid = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().item(Fts3Statuses.missing(json, id));
        }
        return jobs.find(uuid).flatMap(j -> j.isEmpty() ? Uni.createFrom().item(Fts3Statuses.missing(json, id)) : op.apply(uuid, j.get()));
    }

    /** The job as it is, or (fields asked for) with its files' fields under {@code files}. */
    private Uni<Object> withFiles(JobViews.JobView job, List<String> fileFields) {
        if (fileFields == null) {
            return Uni.createFrom().item(job);
        }
        return jobs.files(job.job_id()).map(files -> {
            ObjectNode entry = json.valueToTree(job);
            ArrayNode listed = entry.putArray("files");
            for (TransferFile f : files) {
                ObjectNode file = json.valueToTree(JobViews.FileView.of(f));
                listed.add(fileFields.isEmpty() ? file : file.retain(fileFields));
            }
            return entry;
        });
    }

    @GET
    @Path("{id}/files")
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<List<JobViews.FileView>> files(@PathParam("id") String id) {
        return jobs.files(uuid(id)).map(l -> l.stream().map(JobViews.FileView::of).toList());
    }

    /** Earlier attempts of a file (failures that were retried). */
    @GET
    @Path("{id}/files/{fileId}/retries")
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<List<Map<String, Object>>> retries(@PathParam("id") String id, @PathParam("fileId") long fileId) {
        return jobs.retries(uuid(id), fileId);
    }

    /**
     * Cancels one job or several ({@code DELETE /jobs/a,b,c}): each job's entry with its state after the cancel,
     * {@code 304 Not Modified} for one that was already over (left as it is), as FTS3 answers.
     */
    @DELETE
    @Path("{ids}")
    @APIResponse(responseCode = "200", description = "The job (one id), or each job's entry (several)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON))
    @APIResponse(responseCode = "207", description = "Several ids, some not found: each job's entry with its http_status, as FTS3 answers",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(type = SchemaType.ARRAY)))
    @RolesAllowed({FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<Response> cancel(@PathParam("ids") String ids) {
        return perJob(ids, "/jobs/" + ids, (uuid, j) -> {
            if (j.state.terminal()) {
                return Uni.createFrom().item(Fts3Statuses.changed(json, JobViews.JobView.of(j), Fts3Statuses.NOT_MODIFIED,
                        "The job is in a terminal state"));
            }
            return jobs.cancel(uuid).map(after -> Fts3Statuses.changed(json, JobViews.JobView.of(after), Fts3Statuses.OK, null));
        });
    }

    /**
     * FTS3's data-management operations of a job (deletions, staging without a copy), which its client reads with
     * every detailed status; Ferry's jobs are copies only, so a job the caller sees has none.
     */
    @GET
    @Path("{id}/dm")
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<List<Object>> dataManagement(@PathParam("id") String id) {
        return jobs.find(uuid(id)).map(j -> {
            j.orElseThrow(() -> ProblemException.notFound("job " + id));
            return List.of();
        });
    }

    /** The files' states after the cancel, as FTS3 answers: one state alone for one file, else their list. */
    @DELETE
    @Path("{id}/files/{fileIds}")
    @RolesAllowed({FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<JsonNode> cancelFiles(@PathParam("id") String id,
                                    @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.FILE_IDS)) @PathParam("fileIds") String fileIds) {
        List<Long> ids = new ArrayList<>();
        for (String f : fileIds.split(",")) {
            try {
                ids.add(Long.parseLong(f.trim()));
            } catch (NumberFormatException e) {
                throw ProblemException.badRequest("file_ids", "comma-separated file ids, got '" + f + "'");
            }
        }
        return jobs.cancelFiles(uuid(id), ids).map(files -> {
            Map<Long, String> states = new LinkedHashMap<>();
            files.forEach(f -> states.put(f.fileId, f.state.name()));
            ArrayNode answer = JsonNodeFactory.instance.arrayNode();
            ids.forEach(f -> answer.add(states.get(f)));
            return answer.size() == 1 ? answer.get(0) : answer;
        });
    }

    private static UUID uuid(String id) {
        try {
            return UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw ProblemException.notFound("job " + id);
        }
    }
}
