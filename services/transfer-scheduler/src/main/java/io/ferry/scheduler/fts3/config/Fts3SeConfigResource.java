package io.ferry.scheduler.fts3.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.identity.model.FerryRoles;
import io.ferry.scheduler.ApiPatterns;
import io.quarkus.security.Authenticated;
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
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.util.Map;

/**
 * FTS3's {@code /config/se}: {@code {se: {"se_info": {...}, "operations": {...}}}} per registered SE ({@code ?se=} an SE
 * name or {@code scheme://host}); POST of that shape and {@code DELETE ?se=} for administrators. Ferry's own catalogue
 * is {@code /endpoints}.
 */
@Path("/config/se")
@Produces(MediaType.APPLICATION_JSON)
public class Fts3SeConfigResource {

    final Fts3SeConfigService config;

    @Inject
    public Fts3SeConfigResource(Fts3SeConfigService config) {
        this.config = config;
    }

    @GET
    @Authenticated
    public Uni<Map<String, Object>> get(@QueryParam("se") String se) {
        return config.get(se);
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Map<String, Object>> set(JsonNode body) {
        return config.set(body);
    }

    @DELETE
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    @APIResponse(responseCode = "204", description = "The configuration is deleted, or there was none")
    public Uni<Response> delete(@Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.NOT_BLANK_PARAM)) @QueryParam("se") String se) {
        return config.delete(se).replaceWith(Response.noContent().build());
    }
}
