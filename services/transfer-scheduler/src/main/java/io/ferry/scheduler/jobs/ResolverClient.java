package io.ferry.scheduler.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.servicetoken.ServiceTokenHeaders;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** handle-resolver's replicas of a handle or logical name, best first for a destination SE. */
@RegisterRestClient(configKey = "handle-resolver")
@RegisterClientHeaders(ServiceTokenHeaders.class)
public interface ResolverClient {

    @GET
    @Path("/replicas")
    Uni<JsonNode> replicas(@QueryParam("id") String id, @QueryParam("destination") String destinationSe,
                           @QueryParam("protocol") String protocol, @QueryParam("filesize") Long filesize);
}
