package io.ferry.scheduler.links;

import io.ferry.identity.model.FerryRoles;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.Map;

/** {@code /shares} (VO weights) and {@code /shares/{vo}/activities} (activity weights inside a VO); FTS3's shapes are on /config. */
@Path("/shares")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ShareResource {

    final ShareService shares;

    @Inject
    public ShareResource(ShareService shares) {
        this.shares = shares;
    }

    @GET
    @Authenticated
    public Uni<Map<String, Double>> voShares() {
        return shares.voShares();
    }

    @PUT
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Map<String, Double>> putVoShares(Map<String, Double> weights) {
        return shares.putVoShares(weights);
    }

    @GET
    @Path("{vo}/activities")
    @Authenticated
    public Uni<Map<String, Double>> activityShares(@PathParam("vo") String vo) {
        return shares.activityShares(vo);
    }

    @PUT
    @Path("{vo}/activities")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Map<String, Double>> putActivityShares(@PathParam("vo") String vo, Map<String, Double> weights) {
        return shares.putActivityShares(vo, weights);
    }
}
