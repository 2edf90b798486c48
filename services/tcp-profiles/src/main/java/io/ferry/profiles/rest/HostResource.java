package io.ferry.profiles.rest;

import io.ferry.profiles.service.HostService;
import io.ferry.profiles.service.SiteAdmin;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
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
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Context;
import io.ferry.problem.ProblemException;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The host inventory. Any authenticated caller reads; site admins write their own site's hosts. */
@Path("/hosts")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class HostResource {

    @Inject
    HostService hosts;

    @GET
    @Authenticated
    public Uni<List<HostView>> list(@QueryParam("site") String site, @QueryParam("label") List<String> labels) {
        return hosts.list(site, parseLabels(labels)).map(l -> l.stream().map(HostView::of).toList());
    }

    @GET
    @Path("{name}")
    @Authenticated
    public Uni<HostView> get(@PathParam("name") String name) {
        return hosts.get(name.toLowerCase()).map(HostView::of);
    }

    @POST
    @RolesAllowed(SiteAdmin.WRITE)
    public Uni<Response> create(@Valid @NotNull HostInput input, @Context UriInfo uri) {
        return hosts.create(input).map(h -> Response.created(uri.getAbsolutePathBuilder().path(h.name).build())
                .entity(HostView.of(h)).build());
    }

    @PUT
    @Path("{name}")
    @RolesAllowed(SiteAdmin.WRITE)
    public Uni<HostView> update(@PathParam("name") String name, @Valid @NotNull HostInput input) {
        return hosts.update(name.toLowerCase(), input).map(HostView::of);
    }

    @DELETE
    @Path("{name}")
    @RolesAllowed(SiteAdmin.WRITE)
    public Uni<Response> delete(@PathParam("name") String name) {
        return hosts.delete(name.toLowerCase()).replaceWith(Response.noContent().build());
    }

    /** Bulk import of a site's inventory (a JSON array of hosts); all or nothing. */
    @POST
    @Path("import")
    @RolesAllowed(SiteAdmin.WRITE)
    public Uni<List<HostView>> importAll(@NotNull @Size(min = 1, max = 5000) List<@Valid @NotNull HostInput> inputs) {
        return hosts.importAll(inputs).map(l -> l.stream().map(HostView::of).toList());
    }

    private static Map<String, String> parseLabels(List<String> labels) {
        Map<String, String> out = new TreeMap<>();
        for (String l : labels) {
            int eq = l.indexOf('=');
            if (eq <= 0) {
                throw ProblemException.badRequest("label", "expected key=value, got '" + l + "'");
            }
            out.put(l.substring(0, eq), l.substring(eq + 1));
        }
        return out;
    }
}
