package io.ferry.scheduler.links;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.servicetoken.ServiceTokenHeaders;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** tcp-profiles' stream advice for a link. */
@RegisterRestClient(configKey = "tcp-profiles")
@RegisterClientHeaders(ServiceTokenHeaders.class)
public interface ProfilesClient {

    @GET
    @Path("/advice/streams")
    Uni<JsonNode> streams(@QueryParam("source_se") String sourceSe, @QueryParam("destination_se") String destinationSe);
}
