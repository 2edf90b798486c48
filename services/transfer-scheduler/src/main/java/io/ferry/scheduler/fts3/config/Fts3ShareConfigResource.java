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
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;
import java.util.Map;

/**
 * FTS3's {@code /config/shares} (a list of {@code {source, destination, vo, share}}; DELETE by query) and
 * {@code /config/activity_shares[/{vo}]} ({@code {vo: {"share": {...}, "active": bool}}}). Ferry's own weights are
 * {@code /shares}.
 */
@Path("/config")
@Produces(MediaType.APPLICATION_JSON)
public class Fts3ShareConfigResource {

    final Fts3ShareConfigService shares;

    @Inject
    public Fts3ShareConfigResource(Fts3ShareConfigService shares) {
        this.shares = shares;
    }

    @GET
    @Path("shares")
    @Authenticated
    public Uni<List<Fts3ShareConfigService.LinkShare>> linkShares() {
        return shares.linkShares();
    }

    @POST
    @Path("shares")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Integer> setLinkShare(JsonNode body) {
        return shares.setLinkShare(body);
    }

    @DELETE
    @Path("shares")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Response> deleteLinkShare(@QueryParam("source") String source, @QueryParam("destination") String destination,
                                         @QueryParam("vo") String vo) {
        return shares.deleteLinkShare(source, destination, vo).replaceWith(Response.noContent().build());
    }

    @GET
    @Path("activity_shares")
    @Authenticated
    public Uni<Map<String, Fts3ShareConfigService.ActivityShares>> activityShares() {
        return shares.activityShares();
    }

    @GET
    @Path("activity_shares/{vo}")
    @Authenticated
    public Uni<Fts3ShareConfigService.ActivityShares> activityShares(@PathParam("vo") String vo) {
        return shares.activityShares(vo);
    }

    @POST
    @Path("activity_shares")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Map<String, Object>> setActivityShares(JsonNode body) {
        return shares.setActivityShares(body);
    }

    @DELETE
    @Path("activity_shares/{vo}")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Response> deleteActivityShares(@PathParam("vo") String vo) {
        return shares.deleteActivityShares(vo).replaceWith(Response.noContent().build());
    }
}
