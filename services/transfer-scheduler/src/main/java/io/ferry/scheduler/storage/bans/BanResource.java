package io.ferry.scheduler.storage.bans;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.model.FerryRoles;
import io.ferry.scheduler.ApiPatterns;
import io.ferry.scheduler.fts3.Fts3Time;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.SchemaProperty;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.util.List;
import java.util.UUID;

/**
 * FTS3's {@code /ban/se} and {@code /ban/dn}, for administrators ({@code transfer:admin}, FTS3's config right): a
 * ban answers the ids of the jobs it affected, an unban 204, the listing FTS3's fields.
 */
@Path("/ban")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed(FerryRoles.TRANSFER_ADMIN)
public class BanResource {

    final BanService bans;

    @Inject
    public BanResource(BanService bans) {
        this.bans = bans;
    }

    /** FTS3's t_bad_ses row; {@code wait_timeout} in seconds, 0 until the unban. */
    public record SeBanView(String se, String vo, String status, int wait_timeout, @Schema(nullable = true) String message, String admin_dn, String addition_time) {
        static SeBanView of(BanService.SeBan b) {
            return new SeBanView(b.se(), b.vo(), b.status(), b.waitTimeout(), b.message(), b.adminDn(), Fts3Time.format(b.additionTime()));
        }
    }

    /** FTS3's t_bad_dns row. */
    public record DnBanView(String dn, @Schema(nullable = true) String message, String admin_dn, String addition_time) {
        static DnBanView of(BanService.DnBan b) {
            return new DnBanView(b.dn(), b.message(), b.adminDn(), Fts3Time.format(b.additionTime()));
        }
    }

    /** What {@link BanService.SeBanRequest#parse} takes, for the OpenAPI document. */
    @Schema(name = "SeBanBody", ifSchema = SubmitAllowed.class, thenSchema = Waiting.class)
    record SeBanBody(
            @Schema(required = true, maxLength = 300, pattern = ApiPatterns.NOT_BLANK, description = "an SE name or scheme://host") String storage,
            @Schema(pattern = "^([Cc][Aa][Nn][Cc][Ee][Ll]|[Ww][Aa][Ii][Tt])$", description = "cancel (the default) or wait", nullable = true) String status,
            @Schema(description = "with status wait: the SE's new files are still taken, and wait") Boolean allow_submit,
            @Schema(minimum = "0", maximum = "999999999", description = "seconds", nullable = true) Integer timeout,
            @Schema(nullable = true, pattern = ApiPatterns.STORABLE_TEXT) String vo_name,
            @Schema(nullable = true, pattern = ApiPatterns.STORABLE_TEXT) String message) {
    }

    /** allow_submit true, which a cancel ban refuses. */
    @Schema(requiredProperties = "allow_submit", properties = @SchemaProperty(name = "allow_submit", constValue = "true", type = SchemaType.BOOLEAN))
    record SubmitAllowed() {
    }

    @Schema(requiredProperties = "status", properties = @SchemaProperty(name = "status", pattern = "^[Ww][Aa][Ii][Tt]$", type = SchemaType.STRING))
    record Waiting() {
    }

    /** What {@link BanService#banDn} takes, for the OpenAPI document. */
    record DnBanBody(@Schema(required = true, maxLength = 200, pattern = ApiPatterns.NOT_BLANK) String user_dn, @Schema(nullable = true, pattern = ApiPatterns.STORABLE_TEXT) String message) {
    }

    @POST
    @Path("se")
    @Consumes(MediaType.APPLICATION_JSON)
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = SeBanBody.class)))
    public Uni<List<UUID>> banSe(JsonNode body) {
        return bans.banSe(BanService.SeBanRequest.parse(body));
    }

    @DELETE
    @Path("se")
    @APIResponse(responseCode = "204", description = "The ban is lifted, or there was none")
    public Uni<Response> unbanSe(@Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.NOT_BLANK_PARAM))
                                 @QueryParam("storage") String storage) {
        return bans.unbanSe(storage).replaceWith(Response.noContent().build());
    }

    @GET
    @Path("se")
    public Uni<List<SeBanView>> bannedSes() {
        return bans.bannedSes().map(l -> l.stream().map(SeBanView::of).toList());
    }

    @POST
    @Path("dn")
    @Consumes(MediaType.APPLICATION_JSON)
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = DnBanBody.class)))
    public Uni<List<UUID>> banDn(JsonNode body) {
        return bans.banDn(body);
    }

    @DELETE
    @Path("dn")
    @APIResponse(responseCode = "204", description = "The ban is lifted, or there was none")
    public Uni<Response> unbanDn(@Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.NOT_BLANK_PARAM))
                                 @QueryParam("user_dn") String dn) {
        return bans.unbanDn(dn).replaceWith(Response.noContent().build());
    }

    @GET
    @Path("dn")
    public Uni<List<DnBanView>> bannedDns() {
        return bans.bannedDns().map(l -> l.stream().map(DnBanView::of).toList());
    }
}
