package io.ferry.servicetoken;

import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.core.MultivaluedHashMap;
import jakarta.ws.rs.core.MultivaluedMap;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.rest.client.ext.ClientHeadersFactory;

import java.util.Optional;

/**
 * Calls to other Ferry services carry this service's own token ({@value #TOKEN_KEY}), never the end user's: a REST
 * client takes it with {@code @RegisterClientHeaders(ServiceTokenHeaders.class)}. Without a token the call goes
 * without {@code Authorization}, and the other service answers 401.
 */
@Singleton
public class ServiceTokenHeaders implements ClientHeadersFactory {

    /** Defaults to the key each service has read so far (META-INF/microprofile-config.properties). */
    public static final String TOKEN_KEY = "ferry.service-token";

    private final Optional<String> token;

    @Inject
    public ServiceTokenHeaders(@ConfigProperty(name = TOKEN_KEY) Optional<String> token) {
        this.token = token.filter(t -> !t.isBlank());
    }

    @Override
    public MultivaluedMap<String, String> update(MultivaluedMap<String, String> incoming, MultivaluedMap<String, String> outgoing) {
        MultivaluedMap<String, String> headers = new MultivaluedHashMap<>();
        token.ifPresent(t -> headers.putSingle("Authorization", "Bearer " + t));
        return headers;
    }
}
