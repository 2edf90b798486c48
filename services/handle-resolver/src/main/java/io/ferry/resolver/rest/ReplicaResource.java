package io.ferry.resolver.rest;

import io.ferry.resolver.api.AtRiskPage;
import io.ferry.resolver.api.RankedReplicas;
import io.ferry.resolver.api.ReplicaInput;
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

import java.util.Map;

/** The replica catalogue, object tombstones and the at-risk report. */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class ReplicaResource {

    final ReplicaCatalogue replicas;

    final LogicalNames names;

    final AtRiskReport atRisk;

    final ObjectLifecycle lifecycle;

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
    public Uni<RankedReplicas> replicas(@PathParam("id") String id, @QueryParam("destination") String destination,
                                                 @QueryParam("protocol") String protocol, @QueryParam("filesize") Long filesize) {
        return replicas.replicas(id, destination, protocol, filesize);
    }

    /** The same, with the identifier as a query parameter ({@code ?id=/atlas/data18/file}). */
    @GET
    @Path("replicas")
    public Uni<RankedReplicas> replicasById(@QueryParam("id") String id, @QueryParam("destination") String destination,
                                                     @QueryParam("protocol") String protocol, @QueryParam("filesize") Long filesize) {
        if (id == null || id.isBlank()) {
            throw io.ferry.problem.ProblemException.badRequest("id", "a handle, LFN, GUID or scope:name is required");
        }
        return replicas.replicas(id, destination, protocol, filesize);
    }

    /** Registers (or updates) the copy of a handle's object on an SE; needs ADD_VALUE on the handle. */
    @PUT
    @Path("replicas")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> register(ReplicaInput input) {
        return replicas.register(input == null ? new ReplicaInput(null, null, null, null, null, null) : input)
                .replaceWith(Response.noContent().build());
    }

    /** Binds a logical name (LFN, GUID or scope:name) to a handle, owned by the caller (and its VO). */
    @POST
    @Path("names")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> bind(NameInput input) {
        return names.bind(input == null ? new NameInput(null, null) : input)
                .map(kind -> Response.status(201).entity(Map.of("name", input.name(), "kind", kind, "handle", input.handle())).build());
    }

    /** Unbinds a logical name (its owner, its owner's VO, the bound handle's admins, or handles:admin). */
    @DELETE
    @Path("names")
    public Uni<Response> unbind(@QueryParam("name") String name) {
        return names.unbind(name).replaceWith(Response.noContent().build());
    }

    /** The object is deleted: its replicas go, the handle stays with a tombstone (the proxy answers 410). */
    @DELETE
    @Path("objects/{prefix}/{suffix: .+}")
    public Uni<Response> tombstone(@PathParam("prefix") String prefix, @PathParam("suffix") String suffix,
                                   @QueryParam("reason") @DefaultValue("deleted") String reason) {
        return lifecycle.tombstone(prefix + "/" + suffix, reason).replaceWith(Response.noContent().build());
    }

    /** Lifts a tombstone (handles:admin). */
    @POST
    @Path("objects/{prefix}/{suffix: .+}/restore")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> restore(@PathParam("prefix") String prefix, @PathParam("suffix") String suffix) {
        return lifecycle.tombstone(prefix + "/" + suffix, null).replaceWith(Response.noContent().build());
    }

    /** A page of at-risk identifiers ({@code limit} 1..1000, default 100), the next after {@code cursor}. */
    @GET
    @Path("reports/at-risk")
    public Uni<AtRiskPage> atRisk(@QueryParam("min_replicas") @DefaultValue("2") int minReplicas,
                                           @QueryParam("scope") String scope,
                                           @QueryParam("limit") String limit, @QueryParam("cursor") String cursor) {
        return atRisk.report(minReplicas, scope, AtRiskReport.limit(limit), cursor);
    }
}
