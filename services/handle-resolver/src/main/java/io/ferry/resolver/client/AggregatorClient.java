package io.ferry.resolver.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.servicetoken.ServiceTokenHeaders;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** rate-aggregator's network-cost matrix. */
@RegisterRestClient(configKey = "rate-aggregator")
@RegisterClientHeaders(ServiceTokenHeaders.class)
public interface AggregatorClient {

    @GET
    @Path("/cost")
    Uni<JsonNode> cost(@QueryParam("from") String from, @QueryParam("to") String to, @QueryParam("filesize") String filesize);
}
