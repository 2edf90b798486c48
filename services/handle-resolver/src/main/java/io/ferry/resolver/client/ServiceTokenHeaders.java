package io.ferry.resolver.client;

import io.ferry.resolver.config.ResolverConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import org.eclipse.microprofile.rest.client.ext.ClientHeadersFactory;

/** Every call to another Ferry service carries this service's own token, never the end user's. */
@ApplicationScoped
public class ServiceTokenHeaders implements ClientHeadersFactory {

    @Inject
    ResolverConfig config;

    @Override
    public MultivaluedMap<String, String> update(MultivaluedMap<String, String> incoming,
                                                 MultivaluedMap<String, String> outgoing) {
        MultivaluedMap<String, String> headers = new MultivaluedHashMap<>();
        config.serviceToken().ifPresent(t -> headers.putSingle("Authorization", "Bearer " + t));
        return headers;
    }
}
