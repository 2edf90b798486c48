package io.ferry.scheduler.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.model.FerryRoles;
import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.ApiPatterns;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Webhook settings per VO, for administrators ({@code transfer:admin}): the allowed hosts, and the signing secret,
 * shown once when made. And a job's webhook events with how their delivery went, for whoever sees the job.
 */
@Path("/webhooks")
@Produces(MediaType.APPLICATION_JSON)
public class WebhookResource {

    final WebhookVos vos;
    final Pool pool;
    final CurrentCaller caller;

    @Inject
    public WebhookResource(WebhookVos vos, Pool pool, CurrentCaller caller) {
        this.vos = vos;
        this.pool = pool;
        this.caller = caller;
    }

    public record Hosts(@Schema(required = true, maxItems = AllowedHosts.MAX_PATTERNS, description = "host names or *.domain patterns")
                        List<@Pattern(regexp = AllowedHosts.FORM) @Size(max = 253) String> allowed_hosts) {
    }

    public record VoView(String vo, List<String> allowed_hosts, boolean has_secret, @Schema(nullable = true) OffsetDateTime secret_created_at) {
        static VoView of(WebhookVos.Settings s) {
            return new VoView(s.vo(), s.allowedHosts(), s.hasSecret(), s.secretCreatedAt());
        }
    }

    public record NewSecret(String vo, @Schema(description = "shown this once; store it where the receiver verifies signatures") String secret) {
    }

    public record EventView(String event_id, String kind, String url, String status, int attempts, @Schema(nullable = true) String last_error,
                            OffsetDateTime created_at, @Schema(nullable = true) OffsetDateTime next_attempt_at,
                            @Schema(nullable = true) OffsetDateTime delivered_at, @Schema(nullable = true) OffsetDateTime failed_at, JsonNode body) {
    }

    @GET
    @Path("vos/{vo}")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<VoView> get(@PathParam("vo") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.VO)) String vo) {
        return vos.get(checked(vo)).map(VoView::of);
    }

    @PUT
    @Path("vos/{vo}")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Hosts.class)))
    public Uni<VoView> putHosts(@PathParam("vo") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.VO)) String vo, JsonNode body) {
        return vos.putHosts(checked(vo), hosts(body)).map(VoView::of);
    }

    /** The body's host patterns, read as given: a list bound by Jackson would take {@code false} or {@code 1} as text. */
    private static List<String> hosts(JsonNode body) {
        JsonNode list = body == null ? null : body.get("allowed_hosts");
        if (list == null || !list.isArray()) {
            throw ProblemException.badRequest("allowed_hosts", "required: a list of host names or *.domain patterns");
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            if (!list.get(i).isTextual()) {
                throw ProblemException.badRequest("allowed_hosts[" + i + "]", "a host name or *.domain (a string)");
            }
            out.add(list.get(i).asText());
        }
        return out;
    }

    @POST
    @Path("vos/{vo}/secret")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<NewSecret> newSecret(@PathParam("vo") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.VO)) String vo) {
        return vos.newSecret(checked(vo)).map(secret -> new NewSecret(vo, secret));
    }

    /** The job's webhook events, oldest first: pending (with its next try), delivered or failed, and the last error. */
    @GET
    @Path("jobs/{id}")
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<List<EventView>> events(@PathParam("id") String id) {
        UUID job;
        try {
            job = UUID.fromString(id);
        } catch (IllegalArgumentException e) {
            throw ProblemException.notFound("job " + id);
        }
        return pool.preparedQuery("SELECT vo FROM job WHERE job_id = $1").execute(Tuple.of(job)).flatMap(jobs -> {
            if (jobs.size() == 0 || !caller.hasRole(FerryRoles.TRANSFER_ADMIN) && !jobs.iterator().next().getString(0).equals(caller.vo())) {
                throw ProblemException.notFound("job " + id);
            }
            return pool.preparedQuery("SELECT event_id, kind, url, attempts, last_error, created_at, next_attempt_at, delivered_at, failed_at, body::text AS body "
                    + "FROM webhook_event WHERE job_id = $1 ORDER BY created_at, event_id").execute(Tuple.of(job));
        }).map(rows -> {
            List<EventView> out = new ArrayList<>();
            for (Row r : rows) {
                OffsetDateTime delivered = r.getOffsetDateTime("delivered_at");
                OffsetDateTime failed = r.getOffsetDateTime("failed_at");
                String status = delivered != null ? "delivered" : failed != null ? "failed" : "pending";
                out.add(new EventView(r.getUUID("event_id").toString(), r.getString("kind"), r.getString("url"), status, r.getInteger("attempts"),
                        r.getString("last_error"), r.getOffsetDateTime("created_at"), status.equals("pending") ? r.getOffsetDateTime("next_attempt_at") : null,
                        delivered, failed, json(r.getString("body"))));
            }
            return out;
        });
    }

    /** A VO name as jobs carry it, before it reaches the database (a longer one or a NUL would fail there). */
    private static String checked(String vo) {
        if (vo == null || !VO.matcher(vo).matches()) {
            throw ProblemException.badRequest("vo", "a VO name: a letter or digit, then letters, digits, '.', '_' or '-', at most 100 in all");
        }
        return vo;
    }

    private static final java.util.regex.Pattern VO = java.util.regex.Pattern.compile(ApiPatterns.VO);

    private static JsonNode json(String body) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
