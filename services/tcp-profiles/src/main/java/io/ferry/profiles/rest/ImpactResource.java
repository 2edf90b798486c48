package io.ferry.profiles.rest;

import io.ferry.profiles.api.Impact;
import io.ferry.profiles.api.Syntax;
import io.ferry.profiles.service.ImpactService;
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

/** {@code GET /impact?host=|site=&change=<time or profile@version>[&window=7d]}: did the change help? */
@Path("/impact")
@Produces(MediaType.APPLICATION_JSON)
@Authenticated
public class ImpactResource {

    final ImpactService impact;

    @Inject
    public ImpactResource(ImpactService impact) {
        this.impact = impact;
    }

    @GET
    public Uni<Impact> impact(@QueryParam("host") String host, @QueryParam("site") String site,
                                            @QueryParam("change") @Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = Syntax.CHANGE))
                              String change,
                              @QueryParam("window") String window) {
        return impact.impact(host == null ? null : host.toLowerCase(), site, change, window);
    }
}
