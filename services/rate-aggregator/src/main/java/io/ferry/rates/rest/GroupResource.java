package io.ferry.rates.rest;

import io.ferry.rates.api.GroupInput;
import io.ferry.identity.model.FerryRoles;
import io.ferry.rates.api.SiteGroup;
import io.ferry.rates.api.Syntax;
import io.ferry.rates.service.SiteGroups;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
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
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.util.List;

/** Site groups for channel-style views ({@code /links?by=group}). */
@Path("/groups")
@Produces(MediaType.APPLICATION_JSON)
public class GroupResource {

    final SiteGroups groups;

    @Inject
    public GroupResource(SiteGroups groups) {
        this.groups = groups;
    }

    @GET
    public Uni<List<SiteGroup>> list() {
        return groups.list();
    }

    @PUT
    @Path("{name}")
    @RolesAllowed(FerryRoles.RATES_WRITE)
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<SiteGroup> put(@PathParam("name") @Parameter(
            schema = @Schema(type = SchemaType.STRING, pattern = Syntax.GROUP)) String name,
                              @NotNull GroupInput input) {
        return groups.put(name, input.sites());
    }

    @DELETE
    @Path("{name}")
    @RolesAllowed(FerryRoles.RATES_WRITE)
    @APIResponse(responseCode = "204", description = "Deleted")
    public Uni<Response> delete(@PathParam("name") @Parameter(
            schema = @Schema(type = SchemaType.STRING, pattern = Syntax.GROUP)) String name) {
        return groups.delete(name).replaceWith(Response.noContent().build());
    }
}
