package io.ferry.scheduler.storage;

import io.ferry.identity.model.FerryRoles;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.util.List;

/** {@code /endpoints}: Ferry's SE catalogue (FTS3's {@code /config/se} shape is served beside it). Any authenticated caller reads; administrators write. */
@Path("/endpoints")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class StorageEndpointResource {

    final StorageEndpointService endpoints;

    @Inject
    public StorageEndpointResource(StorageEndpointService endpoints) {
        this.endpoints = endpoints;
    }

    @GET
    @Authenticated
    public Uni<List<StorageEndpointView>> list() {
        return endpoints.list().map(l -> l.stream().map(StorageEndpointView::of).toList());
    }

    @GET
    @Path("{name}")
    @Authenticated
    public Uni<StorageEndpointView> get(@PathParam("name") String name) {
        return endpoints.get(name).map(StorageEndpointView::of);
    }

    @PUT
    @Path("{name}")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Response> put(@PathParam("name") String name, @Valid @NotNull StorageEndpointInput input) {
        return endpoints.put(name, input.registration()).map(c -> Response.status(c.created() ? 201 : 200)
                .entity(StorageEndpointView.of(c.endpoint())).build());
    }

    @DELETE
    @Path("{name}")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    @APIResponse(responseCode = "204", description = "The storage endpoint is deleted")
    public Uni<Response> delete(@PathParam("name") String name) {
        return endpoints.delete(name).replaceWith(Response.noContent().build());
    }
}
