package io.ferry.profiles.rest;

import io.ferry.profiles.api.Drift;
import io.ferry.profiles.api.ObservationView;
import io.ferry.profiles.api.ObservationInput;
import io.ferry.profiles.api.HostView;
import io.ferry.profiles.api.HostInput;
import io.ferry.profiles.api.Syntax;
import io.ferry.identity.model.FerryRoles;
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
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The host inventory. Any authenticated caller reads; site admins write their own site's hosts. */
@Path("/hosts")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class HostResource {

    final HostService hosts;

    final io.ferry.profiles.service.RenderService renderer;

    final io.ferry.profiles.service.DriftService drift;

    final io.ferry.profiles.service.HostRecommender recommender;

    @Inject
    public HostResource(
            HostService hosts,
            io.ferry.profiles.service.RenderService renderer,
            io.ferry.profiles.service.DriftService drift,
            io.ferry.profiles.service.HostRecommender recommender) {
        this.hosts = hosts;
        this.renderer = renderer;
        this.drift = drift;
        this.recommender = recommender;
    }

    @GET
    @Authenticated
    public Uni<List<HostView>> list(@QueryParam("site") String site,
                                    @QueryParam("label") @Parameter(schema = @Schema(type = SchemaType.ARRAY,
                                            implementation = LabelSelector.class)) List<String> labels) {
        return hosts.list(site, parseLabels(labels)).map(l -> l.stream().map(WireViews::host).toList());
    }

    @GET
    @Path("{name}")
    @Authenticated
    public Uni<HostView> get(@PathParam("name") String name) {
        return hosts.get(name.toLowerCase()).map(WireViews::host);
    }

    @POST
    @RolesAllowed(FerryRoles.PROFILES_WRITE)
    @APIResponse(responseCode = "201", description = "Created",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = HostView.class)))
    public Uni<Response> create(@Valid @NotNull HostInput input, @Context UriInfo uri) {
        return hosts.create(input).map(h -> Response.created(uri.getAbsolutePathBuilder().path(h.name).build())
                .entity(WireViews.host(h)).build());
    }

    @PUT
    @Path("{name}")
    @RolesAllowed(FerryRoles.PROFILES_WRITE)
    public Uni<HostView> update(@PathParam("name") String name, @Valid @NotNull HostInput input) {
        return hosts.update(name.toLowerCase(), input).map(WireViews::host);
    }

    @DELETE
    @Path("{name}")
    @RolesAllowed(FerryRoles.PROFILES_WRITE)
    @APIResponse(responseCode = "204", description = "Deleted")
    public Uni<Response> delete(@PathParam("name") String name) {
        return hosts.delete(name.toLowerCase()).replaceWith(Response.noContent().build());
    }

    /** Bulk import of a site's inventory (a JSON array of hosts); all or nothing. */
    @POST
    @Path("import")
    @RolesAllowed(FerryRoles.PROFILES_WRITE)
    public Uni<List<HostView>> importAll(@NotNull @Size(min = 1, max = 5000) List<@Valid @NotNull HostInput> inputs) {
        return hosts.importAll(inputs).map(l -> l.stream().map(WireViews::host).toList());
    }

    /**
     * The host's effective profile and the rule that chose it: {@code format=json} (default), {@code sysctl}
     * (an /etc/sysctl.d file), {@code tuned} (tuned.conf) or {@code tuned-cr} (an OpenShift Tuned resource).
     */
    @GET
    @Path("{name}/profile")
    @Authenticated
    @Produces({MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN, "application/yaml"})
    public Uni<Response> profile(@PathParam("name") String name, @QueryParam("format") @Parameter(schema = @Schema(
            type = SchemaType.STRING, enumeration = {"json", "sysctl", "tuned", "tuned-cr"})) String format) {
        return renderer.render(name.toLowerCase(), format)
                .map(r -> Response.ok(r.body()).type(r.mediaType()).build());
    }

    /** What the host really runs: the raw output of {@code sysctl -a} and {@code ip link}. */
    @PUT
    @Path("{name}/observed")
    @RolesAllowed(FerryRoles.PROFILES_WRITE)
    public Uni<ObservationView> observe(@PathParam("name") String name, @Valid @NotNull ObservationInput input) {
        return drift.record(name.toLowerCase(), input).map(WireViews::observation);
    }

    @GET
    @Path("{name}/observed")
    @Authenticated
    public Uni<List<ObservationView>> observations(@PathParam("name") String name,
                                                   @QueryParam("limit") @Parameter(allowEmptyValue = true) Integer limit) {
        int n = limit == null ? 20 : Math.max(1, Math.min(limit, 500));
        return drift.history(name.toLowerCase(), n).map(l -> l.stream().map(WireViews::observation).toList());
    }

    @GET
    @Path("{name}/drift")
    @Authenticated
    public Uni<io.ferry.profiles.api.Drift> drift(@PathParam("name") String name) {
        return drift.drift(name.toLowerCase());
    }

    /**
     * A recommendation for this host, sized for the longest path it serves: {@code peers=host:rtt,...}, or the
     * RTTs rate-aggregator measured from it. Anonymous, like {@code /recommendations}.
     */
    @GET
    @Path("{name}/recommendation")
    public Uni<io.ferry.profiles.api.HostRecommendation> recommendation(
            @PathParam("name") String name,
            @QueryParam("peers") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = Syntax.PEERS)) String peers,
            @QueryParam("streams") @Parameter(allowEmptyValue = true, schema = @Schema(type = SchemaType.INTEGER, format = "int32", minimum = "1",
                    maximum = "64")) Integer streams) {
        if (streams != null && (streams < 1 || streams > 64)) {
            throw ProblemException.badRequest("streams", "must be between 1 and 64");
        }
        return recommender.recommend(name.toLowerCase(), peers, streams);
    }

    /** A host label selector {@code key=value}, as the document shows the items of {@code label}. */
    @Schema(type = SchemaType.STRING, pattern = Syntax.LABEL_SELECTOR)
    record LabelSelector() {
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
