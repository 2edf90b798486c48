package io.ferry.resolver.client;

import io.ferry.resolver.api.StorageEndpoint;
import io.ferry.servicetoken.ServiceTokenHeaders;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.rest.client.annotation.RegisterClientHeaders;
import org.eclipse.microprofile.rest.client.inject.RegisterRestClient;

import java.util.List;

/** transfer-scheduler, which owns the SE catalogue. */
@RegisterRestClient(configKey = "transfer-scheduler")
@RegisterClientHeaders(ServiceTokenHeaders.class)
public interface SchedulerClient {

    @GET
    @Path("/endpoints")
    Uni<List<StorageEndpoint>> storageEndpoints();
}
