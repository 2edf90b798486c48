package io.ferry.profiles.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.servicetoken.ServiceTokenHeaders;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** rate-aggregator's before/after comparison, for the impact of a profile change. */
@RegisterRestClient(configKey = "rate-aggregator")
@RegisterClientHeaders(ServiceTokenHeaders.class)
public interface AggregatorClient {

    /** The latest RTT from {@code host} to each peer it was measured against. */
    @GET
    @Path("/measurements/latest")
    Uni<JsonNode> latestMeasurements(@QueryParam("host") String host);

    @GET
    @Path("/compare")
    Uni<JsonNode> compare(@QueryParam("se") String storageElement, @QueryParam("site") String site,
                          @QueryParam("at") String at, @QueryParam("window") String window);
}
