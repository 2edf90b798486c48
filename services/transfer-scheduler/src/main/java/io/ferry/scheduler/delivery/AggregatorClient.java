package io.ferry.scheduler.delivery;

import io.ferry.servicetoken.ServiceTokenHeaders;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

/** rate-aggregator's ingest of transfer records (a JSON array; idempotent by record id). */
@RegisterRestClient(configKey = "rate-aggregator")
@RegisterClientHeaders(ServiceTokenHeaders.class)
public interface AggregatorClient {

    @POST
    @Path("/records")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    Uni<Response> ingest(String records);
}
