package io.ferry.scheduler.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * handle-resolver's replicas behind a timeout: a submission with a logical source waits on the resolver, and a
 * resolver that does not answer must turn into a 503 the client can retry, not a request that hangs.
 */
@ApplicationScoped
public class ReplicaLookup {

    /** Keep in step with {@link #replicas}' {@code @Timeout}: the 503 names it. */
    static final long TIMEOUT_MILLIS = 3000;

    final ResolverClient resolver;

    @Inject
    public ReplicaLookup(@RestClient ResolverClient resolver) {
        this.resolver = resolver;
    }

    @Timeout(TIMEOUT_MILLIS)
    public Uni<JsonNode> replicas(String id, String destinationSe, String protocol, Long filesize) {
        return resolver.replicas(id, destinationSe, protocol, filesize);
    }
}
