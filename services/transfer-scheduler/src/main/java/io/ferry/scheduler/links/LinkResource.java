package io.ferry.scheduler.links;

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

/** {@code /links}: per-link limits and streams; each answer shows the streams a file would get. */
@Path("/links")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class LinkResource {

    final LinkService links;

    final StreamAdvice advice;

    @Inject
    public LinkResource(LinkService links, StreamAdvice advice) {
        this.links = links;
        this.advice = advice;
    }

    @GET
    @Authenticated
    public Uni<List<LinkView>> list() {
        return links.list().map(l -> l.stream().map(x -> LinkView.of(x, null)).toList());
    }

    @GET
    @Path("{source}/{destination}")
    @Authenticated
    public Uni<LinkView> get(@PathParam("source") String source, @PathParam("destination") String destination) {
        return links.get(source, destination)
                .flatMap(l -> advice.forLink(source, destination, l.nostreams).map(s -> LinkView.of(l, s)));
    }

    @PUT
    @Path("{source}/{destination}")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<LinkView> put(@PathParam("source") String source, @PathParam("destination") String destination,
                             @Valid @NotNull LinkInput input) {
        return links.put(source, destination, input.settings())
                .flatMap(l -> advice.forLink(source, destination, l.nostreams).map(s -> LinkView.of(l, s)));
    }

    @DELETE
    @Path("{source}/{destination}")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    @APIResponse(responseCode = "204", description = "The link's settings are deleted: it has the defaults again")
    public Uni<Response> delete(@PathParam("source") String source, @PathParam("destination") String destination) {
        return links.delete(source, destination).replaceWith(Response.noContent().build());
    }
}
