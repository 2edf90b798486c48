package io.ferry.scheduler.credentials.delegation;

import io.ferry.scheduler.fts3.Fts3Time;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;

/**
 * FTS3's proxy delegation, as its client ({@code fts-rest-delegate}, and {@code fts-rest-transfer-submit} with a
 * certificate) calls it: read the delegation's termination time, get a certificate request, put the signed proxy,
 * delete. Only the owner of a delegation id may touch it.
 */
@Path("/delegation/{id}")
@Authenticated
public class DelegationResource {

    /** Answered as a {@code Response} entity, outside the method's signature: registered for the native executable. */
    @RegisterForReflection
    public record DelegationView(String termination_time, List<String> voms_attrs) {
    }

    private final DelegationService delegations;

    @Inject
    DelegationResource(DelegationService delegations) {
        this.delegations = delegations;
    }

    /** The delegation's termination time, or JSON {@code null} when there is none (FTS3 answers so). */
    @GET
    @Produces(MediaType.APPLICATION_JSON)
    public Uni<Response> view(@PathParam("id") String id) {
        return delegations.info(id).map(found -> Response.ok(found
                .<Object>map(d -> new DelegationView(Fts3Time.format(d.terminationTime()), d.vomsAttrs()))
                .orElse("null")).type(MediaType.APPLICATION_JSON).build());
    }

    /**
     * A PEM certificate request for a key pair this service keeps; the caller signs it with its own proxy. Plain text
     * whatever the client accepts: FTS3's client asks for JSON on every call, this one included.
     */
    @GET
    @Path("request")
    public Uni<Response> request(@PathParam("id") String id) {
        return delegations.request(id).map(csr -> Response.ok(csr, MediaType.TEXT_PLAIN_TYPE).header("X-Delegation-ID", id).build());
    }

    /** The signed proxy followed by its chain (PEM): 201 once stored. */
    @PUT
    @Path("credential")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> put(@PathParam("id") String id, String pem) {
        return delegations.store(id, pem == null ? "" : pem).map(until -> Response.status(201).build());
    }

    @POST
    @Path("credential")
    @Consumes(MediaType.WILDCARD)
    public Uni<Response> post(@PathParam("id") String id, String pem) {
        return put(id, pem);
    }

    @DELETE
    public Uni<Response> delete(@PathParam("id") String id) {
        return delegations.delete(id).map(x -> Response.noContent().build());
    }
}
