package io.ferry.profiles.rest;

import io.ferry.problem.ProblemException;
import io.ferry.profiles.api.SiteDrift;
import io.ferry.profiles.api.Syntax;
import io.ferry.profiles.service.DriftService;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** {@code GET /drift?site=}: every host of a site with its drift status and a count per status. */
@Path("/drift")
@Produces(MediaType.APPLICATION_JSON)
@Authenticated
public class DriftResource {

    final DriftService drift;

    @Inject
    public DriftResource(DriftService drift) {
        this.drift = drift;
    }

    @GET
    public Uni<SiteDrift> site(
            @QueryParam("site") @Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NOT_BLANK)) String site) {
        if (site == null || site.isBlank()) {
            throw ProblemException.badRequest("site", "a site is required, e.g. site=RAL-LCG2");
        }
        return drift.siteDrift(site);
    }
}
