package io.ferry.scheduler.fts3.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.model.FerryRoles;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;

/** FTS3's {@code /config/links[/{symbolicname}]}: links by symbolic name, FTS3's fields. Ferry's own view is {@code /links}. */
@Path("/config/links")
@Produces(MediaType.APPLICATION_JSON)
public class Fts3LinkConfigResource {

    final Fts3LinkConfigService links;

    @Inject
    public Fts3LinkConfigResource(Fts3LinkConfigService links) {
        this.links = links;
    }

    @GET
    @Authenticated
    public Uni<List<Fts3LinkConfigService.Fts3Link>> list() {
        return links.list();
    }

    @GET
    @Path("{name}")
    @Authenticated
    public Uni<Fts3LinkConfigService.Fts3Link> get(@PathParam("name") String name) {
        return links.get(name);
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Response> set(JsonNode body) {
        return links.set(body).map(l -> Response.status(201).entity(l).build());
    }

    @DELETE
    @Path("{name}")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Response> delete(@PathParam("name") String name) {
        return links.delete(name).replaceWith(Response.noContent().build());
    }
}
