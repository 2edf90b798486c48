package io.ferry.scheduler.storage.bans;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.model.FerryRoles;
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
    public record SeBanView(String se, String vo, String status, int wait_timeout, String message, String admin_dn, String addition_time) {
        static SeBanView of(BanService.SeBan b) {
            return new SeBanView(b.se(), b.vo(), b.status(), b.waitTimeout(), b.message(), b.adminDn(), Fts3Time.format(b.additionTime()));
        }
    }

    /** FTS3's t_bad_dns row. */
    public record DnBanView(String dn, String message, String admin_dn, String addition_time) {
        static DnBanView of(BanService.DnBan b) {
            return new DnBanView(b.dn(), b.message(), b.adminDn(), Fts3Time.format(b.additionTime()));
        }
    }

    @POST
    @Path("se")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<List<UUID>> banSe(JsonNode body) {
        return bans.banSe(BanService.SeBanRequest.parse(body));
    }

    @DELETE
    @Path("se")
    public Uni<Response> unbanSe(@QueryParam("storage") String storage) {
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
    public Uni<List<UUID>> banDn(JsonNode body) {
        return bans.banDn(body);
    }

    @DELETE
    @Path("dn")
    public Uni<Response> unbanDn(@QueryParam("user_dn") String dn) {
        return bans.unbanDn(dn).replaceWith(Response.noContent().build());
    }

    @GET
    @Path("dn")
    public Uni<List<DnBanView>> bannedDns() {
        return bans.bannedDns().map(l -> l.stream().map(DnBanView::of).toList());
    }
}
