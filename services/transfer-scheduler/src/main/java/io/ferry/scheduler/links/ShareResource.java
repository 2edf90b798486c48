package io.ferry.scheduler.links;

import io.ferry.identity.model.FerryRoles;
import io.ferry.scheduler.ApiPatterns;
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
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;

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

    /** The weights ShareService.validate takes: names of 1 to 100 characters, not blank, each above 0 and at most a million. */
    @Schema(type = SchemaType.OBJECT, additionalProperties = Weight.class, propertyNames = WeightName.class)
    public static final class Weights {
    }

    @Schema(type = SchemaType.NUMBER, minimum = "0", exclusiveMinimum = true, maximum = "1000000")
    public static final class Weight {
    }

    @Schema(type = SchemaType.STRING, maxLength = 100, pattern = ApiPatterns.NOT_BLANK)
    public static final class WeightName {
    }

    @PUT
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Weights.class)))
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
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Weights.class)))
    public Uni<Map<String, Double>> putActivityShares(@Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.VO_LOWER)) @PathParam("vo") String vo, Map<String, Double> weights) {
        return shares.putActivityShares(vo, weights);
    }
}
