package io.ferry.scheduler.rest;

import io.ferry.problem.ProblemException;
import io.ferry.scheduler.repository.OptimizerDecisions;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import java.util.List;

/** FTS3's optimizer views: the current decision per link, and a link's decisions over time, each with its rationale. */
@Path("/optimizer")
@Produces(MediaType.APPLICATION_JSON)
@Authenticated
public class OptimizerResource {

    @Inject
    OptimizerDecisions optimizer;

    @GET
    public Uni<List<DecisionView>> current() {
        return optimizer.current().map(l -> l.stream().map(DecisionView::of).toList());
    }

    @GET
    @Path("evolution")
    public Uni<List<DecisionView>> evolution(@QueryParam("source_se") String sourceSe, @QueryParam("dest_se") String destSe,
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
