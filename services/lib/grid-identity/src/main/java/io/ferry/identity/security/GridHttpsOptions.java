package io.ferry.identity.security;

import io.ferry.identity.config.IdentityConfig;
import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.TrustOptions;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * With {@code ferry.identity.x509.enabled}, the HTTPS server asks every client for a certificate (a client without
 * one may still use a token) and takes any chain through the handshake ({@link GridClientTrust}); the server's own
 * certificate stays as Quarkus configures it ({@code quarkus.tls.*}).
 */
@ApplicationScoped
public class GridHttpsOptions implements HttpServerOptionsCustomizer {

    @Inject
    IdentityConfig config;

    @Override
    public void customizeHttpsServer(HttpServerOptions options) {
        if (config.x509().enabled()) {
            options.setClientAuth(ClientAuth.REQUEST);
            options.setTrustOptions(TrustOptions.wrap(new GridClientTrust()));
        }
    }
}
