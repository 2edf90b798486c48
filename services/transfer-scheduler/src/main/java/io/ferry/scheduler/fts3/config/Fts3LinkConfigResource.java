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
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

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

    /** What Fts3LinkConfigService.set takes, for the OpenAPI document: FTS3's fields and no others. */
    @Schema(name = "Fts3LinkBody", additionalProperties = Schema.False.class)
    record LinkBody(
            @Schema(required = true, maxLength = 255, pattern = ApiPatterns.NOT_BLANK) String symbolicname,
            @Schema(required = true, pattern = ApiPatterns.NOT_BLANK, description = "a registered SE or its scheme://host (FTS3's * is refused)") String source,
            @Schema(required = true, pattern = ApiPatterns.NOT_BLANK, description = "a registered SE or its scheme://host (FTS3's * is refused)") String destination,
            @Schema(nullable = true, minimum = "1", maximum = "1000", description = "at most max_active; default 2") Integer min_active,
            @Schema(nullable = true, minimum = "1", maximum = "1000", description = "at least min_active; default 2") Integer max_active,
            @Schema(nullable = true, minimum = "1", maximum = "16") Integer nostreams,
            @Schema(nullable = true, enumeration = {"adaptive", "fixed"}) String optimizer_mode,
            @Schema(nullable = true, minimum = "0", maximum = "2147483647") Integer tcp_buffer_size,
            @Schema(nullable = true) Boolean no_delegation) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = LinkBody.class)))
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Response> set(JsonNode body) {
        return links.set(body).map(l -> Response.status(201).entity(l).build());
    }

    @DELETE
    @Path("{name}")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    @APIResponse(responseCode = "204", description = "The link's configuration is deleted")
    public Uni<Response> delete(@PathParam("name") String name) {
        return links.delete(name).replaceWith(Response.noContent().build());
    }
}
