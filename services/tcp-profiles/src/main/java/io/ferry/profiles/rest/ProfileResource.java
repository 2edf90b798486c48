package io.ferry.profiles.rest;

import io.ferry.profiles.api.Effective;
import io.ferry.profiles.api.ProfileView;
import io.ferry.profiles.api.ProfileInput;
import io.ferry.profiles.api.Syntax;
import io.ferry.identity.model.FerryRoles;
import io.ferry.profiles.service.ProfileService;
import io.ferry.profiles.service.SiteAdmin;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.util.List;
import java.util.Map;

/** Named, versioned TCP profiles. */
@Path("/profiles")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Authenticated
public class ProfileResource {

    final ProfileService profiles;

    @Inject
    public ProfileResource(ProfileService profiles) {
        this.profiles = profiles;
    }

    @GET
    public Uni<List<ProfileView>> list(@QueryParam("site") String site) {
        return profiles.list(site);
    }

    @GET
    @Path("{name}")
    public Uni<ProfileView> current(@PathParam("name") String name) {
        return profiles.current(name);
    }

    /** Creates the profile or stores a new version of it (an identical body changes nothing). */
    @PUT
    @Path("{name}")
    @RolesAllowed(FerryRoles.PROFILES_WRITE)
    public Uni<ProfileView> put(@PathParam("name") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NAME)) String name,
                                 @Valid @NotNull ProfileInput input) {
        return profiles.put(name, input);
    }

    @DELETE
    @Path("{name}")
    @RolesAllowed(FerryRoles.PROFILES_WRITE)
    @APIResponse(responseCode = "204", description = "Deleted")
    public Uni<Response> delete(@PathParam("name") String name) {
        return profiles.delete(name).replaceWith(Response.noContent().build());
    }

    @GET
    @Path("{name}/versions")
    public Uni<List<ProfileView>> versions(@PathParam("name") String name) {
        return profiles.versions(name);
    }

    @GET
    @Path("{name}/versions/{version}")
    public Uni<ProfileView> version(@PathParam("name") String name, @PathParam("version") int version) {
        return profiles.version(name, version);
    }

    /** Settings after include resolution (child wins), of the current or a given version. */
    @GET
    @Path("{name}/effective")
    public Uni<Effective> effective(@PathParam("name") String name,
                                    @QueryParam("version") @Parameter(allowEmptyValue = true) Integer version) {
        return profiles.effective(name, version).map(WireViews::effective);
    }

    /** A new version with the settings of an earlier one. */
    @POST
    @Path("{name}/rollback")
    @Consumes(MediaType.WILDCARD)
    @RolesAllowed(FerryRoles.PROFILES_WRITE)
    public Uni<ProfileView> rollback(@PathParam("name") String name, @QueryParam("to") @NotNull @Min(1) Integer to,
                                     @QueryParam("comment") String comment) {
        return profiles.rollback(name, to, comment);
    }
}
