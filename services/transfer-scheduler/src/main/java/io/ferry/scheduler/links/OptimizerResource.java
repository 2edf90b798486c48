package io.ferry.scheduler.links;

import io.ferry.problem.ProblemException;
import io.ferry.scheduler.ApiPatterns;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.util.List;

/**
 * The optimizer: {@code GET /optimizer} answers FTS3's boolean (whether the optimizer runs: in Ferry it always does,
 * links in {@code fixed} mode excepted); the current decision per link and a link's decisions over time, each with
 * its rationale, are Ferry's richer views.
 */
@Path("/optimizer")
@Produces(MediaType.APPLICATION_JSON)
@Authenticated
public class OptimizerResource {

    final OptimizerDecisions optimizer;

    @Inject
    public OptimizerResource(OptimizerDecisions optimizer) {
        this.optimizer = optimizer;
    }

    @GET
    public boolean enabled() {
        return true;
    }

    @GET
    @Path("decisions")
    public Uni<List<DecisionView>> current() {
        return optimizer.current().map(l -> l.stream().map(DecisionView::of).toList());
    }

    @GET
    @Path("evolution")
    public Uni<List<DecisionView>> evolution(@Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.NOT_BLANK_PARAM)) @QueryParam("source_se") String sourceSe,
                                             @Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = ApiPatterns.NOT_BLANK_PARAM)) @QueryParam("dest_se") String destSe,
                                             @Parameter(allowEmptyValue = true, schema = @Schema(type = SchemaType.INTEGER, minimum = "1", maximum = "10000", defaultValue = "100"))
                                             @QueryParam("limit") @DefaultValue("100") int limit) {
        if (sourceSe == null || sourceSe.isBlank()) {
            throw ProblemException.badRequest("source_se", "required");
        }
        if (destSe == null || destSe.isBlank()) {
            throw ProblemException.badRequest("dest_se", "required");
        }
        if (limit < 1 || limit > 10_000) {
            throw ProblemException.badRequest("limit", "between 1 and 10000");
        }
        return optimizer.evolution(sourceSe, destSe, limit).map(l -> l.stream().map(DecisionView::of).toList());
    }
}
