package io.ferry.scheduler.fts3.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.model.FerryRoles;
import io.ferry.scheduler.ApiPatterns;
import io.ferry.scheduler.links.ShareResource;
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
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

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

    /** What Fts3ShareConfigService.setLinkShare takes, for the OpenAPI document. */
    record LinkShareBody(
            @Schema(required = true, maxLength = 140, pattern = SCHEME_HOST, description = "a URL: its scheme://host is kept") String source,
            @Schema(required = true, maxLength = 140, pattern = SCHEME_HOST, description = "a URL: its scheme://host is kept") String destination,
            @Schema(required = true, maxLength = 100, pattern = ApiPatterns.NOT_BLANK) String vo,
            @Schema(required = true, minimum = "1", maximum = "999999999") Integer share) {

        static final String SCHEME_HOST = "^ *[A-Za-z][A-Za-z0-9+.-]*://([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?[.])*[A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)? *$";
    }

    /** What Fts3ShareConfigService.setActivityShares takes, for the OpenAPI document. */
    record ActivitySharesBody(
            @Schema(required = true, pattern = ApiPatterns.VO_LOWER) String vo,
            @Schema(required = true, implementation = ShareResource.Weights.class, minProperties = 1) Map<String, Double> share,
            @Schema(nullable = true) Boolean active) {
    }

    @POST
    @Path("shares")
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = LinkShareBody.class)))
    public Uni<Integer> setLinkShare(JsonNode body) {
        return shares.setLinkShare(body);
    }

    @DELETE
    @Path("shares")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    @APIResponse(responseCode = "204", description = "The share is deleted, or there was none")
    public Uni<Response> deleteLinkShare(@Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.NOT_BLANK_PARAM)) @QueryParam("source") String source,
                                         @Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.NOT_BLANK_PARAM)) @QueryParam("destination") String destination,
                                         @Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.NOT_BLANK_PARAM)) @QueryParam("vo") String vo) {
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
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = ActivitySharesBody.class)))
    public Uni<Map<String, Object>> setActivityShares(JsonNode body) {
        return shares.setActivityShares(body);
    }

    @DELETE
    @Path("activity_shares/{vo}")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    @APIResponse(responseCode = "204", description = "The VO's activity shares are deleted")
    public Uni<Response> deleteActivityShares(@PathParam("vo") String vo) {
        return shares.deleteActivityShares(vo).replaceWith(Response.noContent().build());
    }
}
