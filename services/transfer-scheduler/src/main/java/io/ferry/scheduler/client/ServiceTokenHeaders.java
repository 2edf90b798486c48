package io.ferry.scheduler.client;

import io.ferry.scheduler.config.SchedulerConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import org.eclipse.microprofile.rest.client.ext.ClientHeadersFactory;

/** Calls to other Ferry services carry this service's own token, never the end user's. */
@ApplicationScoped
public class ServiceTokenHeaders implements ClientHeadersFactory {

    @Inject
    SchedulerConfig config;

    @Override
    public MultivaluedMap<String, String> update(MultivaluedMap<String, String> incoming, MultivaluedMap<String, String> outgoing) {
        MultivaluedMap<String, String> headers = new MultivaluedHashMap<>();
        config.serviceToken().ifPresent(t -> headers.putSingle("Authorization", "Bearer " + t));
        return headers;
    }
}
