package io.ferry.scheduler.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.ferry.identity.model.FerryRoles;
import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.engine.EngineWakeups;
import io.ferry.scheduler.repository.Job;
import io.ferry.scheduler.repository.TransferFile;
import io.ferry.scheduler.service.EventStreamLimits;
import io.ferry.scheduler.service.JobEvents;
import io.ferry.scheduler.service.JobService;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.RestStreamElementType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * FTS3's job calls: submit, list, get (one or several), files, retries, cancel, and event streams. Reads need
 * {@code transfer:read} or {@code transfer:submit} (a VO's own jobs) or {@code transfer:admin} (every VO's);
 * submitting and cancelling need {@code transfer:submit} or {@code transfer:admin}.
 */
@Path("/jobs")
@Produces(MediaType.APPLICATION_JSON)
public class JobResource {

    @Inject
    JobService jobs;

    @Inject
    EngineWakeups wakeups;

    @Inject
    JobEvents events;

    @Inject
    EventStreamLimits streams;

    @Inject
    CurrentCaller caller;

    @Inject
    ObjectMapper json;

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
                .map(j -> events.follow(job, jobs.files(job).map(files -> files.stream().map(f -> snapshotEvent(j, f)).toList())))
                .orElseGet(() -> Multi.createFrom().empty())));
    }

    private static JobEvents.FileEvent snapshotEvent(Job j, TransferFile f) {
        return new JobEvents.FileEvent(j.jobId.toString(), f.fileId, f.state, j.state, f.reason,
                (f.finishTime != null ? f.finishTime : f.submittedAt).toString());
    }

    @POST
    @RolesAllowed({FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Map<String, String>> submit(JsonNode body) {
        // the new files are committed: this replica's prepare loop need not wait for its next tick
        return jobs.submit(body).invoke(id -> wakeups.jobSubmitted()).map(id -> Map.of("job_id", id.toString()));
    }

    @GET
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<List<JobViews.JobView>> list(@QueryParam("state_in") String stateIn, @QueryParam("vo_name") String voName,
                                           @QueryParam("source_se") String sourceSe, @QueryParam("dest_se") String destSe,
                                           @QueryParam("limit") @DefaultValue("100") int limit) {
        if (limit < 1 || limit > 10_000) {
            throw ProblemException.badRequest("limit", "between 1 and 10000");
        }
        List<String> states = stateIn == null || stateIn.isBlank() ? List.of()
                : Arrays.stream(stateIn.split(",")).map(String::trim).map(String::toUpperCase).toList();
        if (states.stream().anyMatch(s -> !io.ferry.scheduler.state.JobState.NAMES.contains(s))) {
            throw ProblemException.badRequest("state_in", "states are " + io.ferry.scheduler.state.JobState.NAMES);
        }
        return jobs.list(states, voName, sourceSe, destSe, limit).map(l -> l.stream().map(JobViews.JobView::of).toList());
    }

    /**
     * One job, or several ({@code id1,id2}): 207 with a per-id status when some are unknown. With
     * {@code files=file_state,dest_surl,...} (FTS3's bulk status, {@code easy.get_jobs_statuses(list_files=True)})
     * each job carries its files with those fields.
     */
    @GET
    @Path("{ids}")
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<Response> get(@PathParam("ids") String ids, @QueryParam("files") String fileFields) {
        List<String> requested = Arrays.stream(ids.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        List<String> fields = fileFields == null ? null
                : Arrays.stream(fileFields.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        if (requested.size() == 1) {
            return jobs.find(uuid(requested.get(0))).flatMap(j -> withFiles(JobViews.JobView.of(
                    j.orElseThrow(() -> ProblemException.notFound("job " + requested.get(0)))), fields)).map(v -> Response.ok(v).build());
        }
        Uni<List<Object>> all = Uni.createFrom().item(new ArrayList<>());
        boolean[] missing = {false};
        for (String id : requested) {
            all = all.flatMap(acc -> lookup(id, fields).map(found -> {
                if (found == null) {
                    missing[0] = true;
                    Map<String, Object> miss = new LinkedHashMap<>();
                    miss.put("job_id", id);
                    miss.put("http_status", "404 Not Found");
                    acc.add(miss);
                } else {
                    acc.add(found);
                }
                return acc;
            }));
        }
        return all.map(list -> Response.status(missing[0] ? 207 : 200).entity(list).build());
    }

    private Uni<Object> lookup(String id, List<String> fileFields) {
        UUID uuid;
        try {
            uuid = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            return Uni.createFrom().nullItem();
        }
        return jobs.find(uuid).flatMap(j -> j.isEmpty() ? Uni.createFrom().nullItem() : withFiles(JobViews.JobView.of(j.get()), fileFields));
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

    @DELETE
    @Path("{id}")
    @RolesAllowed({FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<JobViews.JobView> cancel(@PathParam("id") String id) {
        return jobs.cancel(uuid(id)).map(JobViews.JobView::of);
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
    public Uni<JsonNode> cancelFiles(@PathParam("id") String id, @PathParam("fileIds") String fileIds) {
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
            files.forEach(f -> states.put(f.fileId, f.state));
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
