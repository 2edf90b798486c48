package io.ferry.scheduler.probes;

import io.ferry.identity.model.FerryRoles;
import io.ferry.scheduler.ApiPatterns;
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
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.parameters.RequestBody;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

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
    public Uni<List<ProbeRunView>> runs(@PathParam("id") long id, @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.WINDOW, defaultValue = "24h"))
                                         @QueryParam("window") @DefaultValue("24h") String window) {
        OffsetDateTime since = OffsetDateTime.now(ZoneOffset.UTC).minus(LookBack.parse(window));
        return probes.runs(id, since).map(l -> l.stream().map(ProbeRunView::of).toList());
    }

    /** A new probe's settings (ProbeService.check, its limits the default settings'), for the OpenAPI document. */
    record NewProbe(
            @Schema(required = true, pattern = ApiPatterns.NOT_BLANK, description = "a registered SE") String source_se,
            @Schema(required = true, pattern = ApiPatterns.NOT_BLANK, description = "a registered SE, not source_se") String dest_se,
            @Schema(required = true, minimum = "1", maximum = "10737418240", description = "bytes, at most ferry.scheduler.probes.max-file-size") Long file_size,
            @Schema(required = true, minimum = "300", maximum = "31622400", description = "seconds, at least ferry.scheduler.probes.min-interval") Integer interval_seconds,
            @Schema(nullable = true, pattern = ApiPatterns.VO) String vo,
            @Schema(nullable = true) Boolean enabled) {
    }

    @POST
    @RolesAllowed(FerryRoles.TRANSFER_ADMIN)
    @RequestBody(required = true, content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = NewProbe.class)))
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
    @APIResponse(responseCode = "204", description = "The probe and its runs are deleted")
    public Uni<Response> delete(@PathParam("id") long id) {
        return probes.delete(id).replaceWith(Response.noContent().build());
    }
}
