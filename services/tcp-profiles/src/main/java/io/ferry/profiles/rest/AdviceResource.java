package io.ferry.profiles.rest;

import io.ferry.profiles.api.Advice;
import io.ferry.profiles.api.Syntax;
import io.ferry.profiles.service.StreamAdvisor;
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

/**
 * {@code GET /advice/streams?source_se=|source_host=&destination_se=|destination_host=[&rtt=]}: TCP streams per
 * file for a link, with the reasoning. Anonymous: transfer-scheduler asks it for links without a stream count.
 */
@Path("/advice")
@Produces(MediaType.APPLICATION_JSON)
public class AdviceResource {

    final StreamAdvisor advisor;

    @Inject
    public AdviceResource(StreamAdvisor advisor) {
        this.advisor = advisor;
    }

    @GET
    @Path("streams")
    public Uni<Advice> streams(@QueryParam("source_se") String sourceSe, @QueryParam("source_host") String sourceHost,
                                             @QueryParam("destination_se") String destinationSe,
                                             @QueryParam("destination_host") String destinationHost, 
                                @QueryParam("rtt") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = Syntax.RTT)) String rtt) {
        return advisor.advise(sourceSe, sourceHost, destinationSe, destinationHost, rtt);
    }
}
