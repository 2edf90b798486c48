package io.ferry.scheduler.probes;

import io.ferry.identity.model.FerryRoles;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.net.URI;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * {@code /probes}: link probes (SONAR's periodic test transfers) and their series. Any authenticated caller reads;
 * administrators write, as for the SE and link configuration.
 */
@Path("/probes")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class ProbeResource {

    final ProbeService probes;

    @Inject
    public ProbeResource(ProbeService probes) {
        this.probes = probes;
    }

    @GET
    @Authenticated
    public Uni<List<ProbeView>> list() {
        return probes.list().map(l -> l.stream().map(ProbeView::of).toList());
    }

    @GET
    @Path("{id}")
    @Authenticated
    public Uni<ProbeView> get(@PathParam("id") long id) {
        return probes.get(id).map(ProbeView::of);
    }

    /** The probe's runs within {@code window} (such as 6h, 7d; at most 30d), oldest first, each with the 12-hour average up to it. */
    @GET
    @Path("{id}/runs")
    @Authenticated
    public Uni<List<ProbeRunView>> runs(@PathParam("id") long id, @QueryParam("window") @DefaultValue("24h") String window) {
        OffsetDateTime since = OffsetDateTime.now(ZoneOffset.UTC).minus(LookBack.parse(window));
        return probes.runs(id, since).map(l -> l.stream().map(ProbeRunView::of).toList());
    }

    @POST
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Response> create(@NotNull ProbeInput input) {
        return probes.create(input.settings()).map(p -> Response.created(URI.create("/probes/" + p.probeId())).entity(ProbeView.of(p)).build());
    }

    @PUT
    @Path("{id}")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<ProbeView> update(@PathParam("id") long id, @NotNull ProbeInput input) {
        return probes.update(id, input.settings()).flatMap(p -> probes.get(p.probeId())).map(ProbeView::of);
    }

    @DELETE
    @Path("{id}")
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    public Uni<Response> delete(@PathParam("id") long id) {
        return probes.delete(id).replaceWith(Response.noContent().build());
    }
}
