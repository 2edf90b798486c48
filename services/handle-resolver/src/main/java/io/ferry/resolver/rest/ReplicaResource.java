package io.ferry.resolver.rest;

import io.ferry.resolver.api.AtRiskPage;
import io.ferry.resolver.api.RankedReplicas;
import io.ferry.resolver.api.ReplicaInput;
import io.ferry.resolver.api.NameBinding;
import io.ferry.resolver.api.NameInput;
import io.ferry.resolver.replicas.AtRiskReport;
import io.ferry.resolver.replicas.LogicalNames;
import io.ferry.resolver.handles.ObjectLifecycle;
import io.ferry.resolver.replicas.ReplicaCatalogue;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/** The replica catalogue, object tombstones and the at-risk report. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class ReplicaResource {

    final ReplicaCatalogue replicas;

    final LogicalNames names;

    final AtRiskReport atRisk;

    final ObjectLifecycle lifecycle;

    /** An identifier or name: not blank, without control characters. */
    static final String ID = "^[^" + ApiDocs.NO_CONTROL + "]*[^\\s" + ApiDocs.NO_CONTROL + "][^" + ApiDocs.NO_CONTROL + "]*$";

    @Inject
    public ReplicaResource(
            ReplicaCatalogue replicas,
            LogicalNames names,
            AtRiskReport atRisk,
            ObjectLifecycle lifecycle) {
        this.replicas = replicas;
        this.names = names;
        this.atRisk = atRisk;
        this.lifecycle = lifecycle;
    }

    /** Replicas of a handle, LFN, GUID or scope:name, best first for {@code destination}, each with its TURL. */
    @GET
    @Path("replicas/{id: .+}")
    public Uni<RankedReplicas> replicas(@PathParam("id") @Parameter(schema = @Schema(type = SchemaType.STRING, maxLength = 1100, pattern = ID)) String id,
                                                 @QueryParam("destination") String destination,
                                                 @QueryParam("protocol") @Parameter(schema = @Schema(type = SchemaType.STRING,
                                                         enumeration = {"https", "davs", "http", "root", "gsiftp", "file", "srm"}, defaultValue = "https")) String protocol,
                                                 @QueryParam("filesize") @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int64", minimum = "0")) Long filesize) {
        return replicas.replicas(id, destination, protocol, filesize);
    }

    /** The same, with the identifier as a query parameter ({@code ?id=/atlas/data18/file}). */
    @GET
    @Path("replicas")
    public Uni<RankedReplicas> replicasById(@QueryParam("id") @Parameter(required = true,
                                                         schema = @Schema(type = SchemaType.STRING, maxLength = 1100, pattern = ID)) String id,
                                                 @QueryParam("destination") String destination,
                                                 @QueryParam("protocol") @Parameter(schema = @Schema(type = SchemaType.STRING,
                                                         enumeration = {"https", "davs", "http", "root", "gsiftp", "file", "srm"}, defaultValue = "https")) String protocol,
                                                 @QueryParam("filesize") @Parameter(schema = @Schema(type = SchemaType.INTEGER, format = "int64", minimum = "0")) Long filesize) {
        if (id == null || id.isBlank()) {
            throw io.ferry.problem.ProblemException.badRequest("id", "a handle, LFN, GUID or scope:name is required");
        }
        return replicas.replicas(id, destination, protocol, filesize);
    }

    /** Registers (or updates) the copy of a handle's object on an SE; needs ADD_VALUE on the handle. */
    @PUT
    @Path("replicas")
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "204", description = "Recorded")
    public Uni<Response> register(@RequestBody(required = true) ReplicaInput input) {
        return replicas.register(input == null ? new ReplicaInput(null, null, null, null, null, null) : input)
                .replaceWith(Response.noContent().build());
    }

    /** Binds a logical name (LFN, GUID or scope:name) to a handle, owned by the caller (and its VO). */
    @POST
    @Path("names")
    @Consumes(MediaType.APPLICATION_JSON)
    @APIResponse(responseCode = "201", description = "Bound", content = @Content(mediaType = MediaType.APPLICATION_JSON,
            schema = @Schema(implementation = NameBinding.class)))
    public Uni<Response> bind(@RequestBody(required = true) NameInput input) {
        return names.bind(input == null ? new NameInput(null, null) : input)
                .map(kind -> Response.status(201).entity(new NameBinding(input.name(), kind, input.handle())).build());
    }

    /** Unbinds a logical name (its owner, its owner's VO, the bound handle's admins, or handles:admin). */
    @DELETE
    @Path("names")
    @APIResponse(responseCode = "204", description = "Unbound")
    public Uni<Response> unbind(@QueryParam("name") @Parameter(required = true,
            schema = @Schema(type = SchemaType.STRING, maxLength = 1024, pattern = ID)) String name) {
        return names.unbind(name).replaceWith(Response.noContent().build());
    }

    /** The object is deleted: its replicas go, the handle stays with a tombstone (the proxy answers 410). */
    @DELETE
    @Path("objects/{prefix}/{suffix: .+}")
    @APIResponse(responseCode = "204", description = "Tombstoned")
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "HandleError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    @APIResponse(responseCode = "404", ref = "HandleError")
    public Uni<Response> tombstone(@PathParam("prefix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.PREFIX)) String prefix,
                                   @PathParam("suffix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.SUFFIX)) String suffix,
                                   @QueryParam("reason") @DefaultValue("deleted") @Parameter(schema = @Schema(type = SchemaType.STRING,
                                           maxLength = 1000, pattern = "^[^" + ApiDocs.NO_CONTROL + "]*$")) String reason) {
        return lifecycle.tombstone(prefix + "/" + suffix, reason).replaceWith(Response.noContent().build());
    }

    /** Lifts a tombstone (handles:admin). */
    @POST
    @Path("objects/{prefix}/{suffix: .+}/restore")
    @Consumes(MediaType.WILDCARD)
    @APIResponse(responseCode = "204", description = "Restored")
    @APIResponse(responseCode = "400", ref = "HandleErrorOrProblem")
    @APIResponse(responseCode = "401", ref = "HandleError")
    @APIResponse(responseCode = "403", ref = "HandleError")
    @APIResponse(responseCode = "404", ref = "HandleError")
    public Uni<Response> restore(@PathParam("prefix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.PREFIX)) String prefix,
                                 @PathParam("suffix") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiDocs.SUFFIX)) String suffix) {
        return lifecycle.tombstone(prefix + "/" + suffix, null).replaceWith(Response.noContent().build());
    }

    /** A page of at-risk identifiers ({@code limit} 1..1000, default 100), the next after {@code cursor}. */
    @GET
    @Path("reports/at-risk")
    public Uni<AtRiskPage> atRisk(@QueryParam("min_replicas") @DefaultValue("2") @Parameter(schema = @Schema(type = SchemaType.INTEGER,
                                           format = "int32", minimum = "1", maximum = "100", defaultValue = "2")) int minReplicas,
                                  @QueryParam("scope") @Parameter(schema = @Schema(type = SchemaType.STRING, maxLength = 100)) String scope,
                                  @QueryParam("limit") @Parameter(description = "1 to 1000; 100 when empty",
                                          schema = @Schema(type = SchemaType.STRING, pattern = "^ *(0*([1-9][0-9]{0,2}|1000))? *$")) String limit,
                                  @QueryParam("cursor") @Parameter(description = "The next of the page before",
                                          schema = @Schema(type = SchemaType.STRING, pattern = "^[A-Za-z0-9_-]*$")) String cursor) {
        return atRisk.report(minReplicas, scope, AtRiskReport.limit(limit), cursor);
    }
}
