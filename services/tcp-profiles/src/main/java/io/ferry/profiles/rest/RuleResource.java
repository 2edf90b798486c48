package io.ferry.profiles.rest;

import io.ferry.profiles.api.RuleView;
import io.ferry.profiles.api.RuleInput;
import io.ferry.profiles.api.Syntax;
import io.ferry.identity.model.FerryRoles;
import io.ferry.profiles.service.AssignmentService;
import io.ferry.profiles.service.SiteAdmin;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
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

/** Assignment rules {@code {profile, priority, match}}. */
@Path("/rules")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RuleResource {

    final AssignmentService assignments;

    @Inject
    public RuleResource(AssignmentService assignments) {
        this.assignments = assignments;
    }

    @GET
    @Authenticated
    public Uni<List<RuleView>> list() {
        return assignments.list().map(l -> l.stream().map(WireViews::rule).toList());
    }

    @PUT
    @Path("{name}")
    @RolesAllowed(FerryRoles.PROFILES_WRITE)
    public Uni<RuleView> put(@PathParam("name") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NAME)) String name,
                              @Valid @NotNull RuleInput input) {
        return assignments.put(name, input).map(WireViews::rule);
    }

    @DELETE
    @Path("{name}")
    @RolesAllowed(FerryRoles.PROFILES_WRITE)
    @APIResponse(responseCode = "204", description = "Deleted")
    public Uni<Response> delete(@PathParam("name") String name) {
        return assignments.delete(name).replaceWith(Response.noContent().build());
    }
}
