package io.ferry.identity.security;

import io.ferry.identity.config.IdentityConfig;
import io.ferry.identity.config.IdentitySettings;
import io.ferry.identity.token.IssuerKeys;
import io.ferry.identity.token.TokenVerifier;
import io.ferry.identity.x509.CertificateVerifier;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/** The service's verifiers, built once from {@code ferry.identity.*} at startup, so a bad configuration stops it there. */
@Startup
@Singleton
public class GridVerifiers {

    private final TokenVerifier tokens;
    private final CertificateVerifier certificates;

    @Inject
    public GridVerifiers(IdentityConfig config) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NORMAL).build();
        this.tokens = TokenVerifier.of(IdentitySettings.issuers(config),
                issuer -> new IssuerKeys(issuer.keys(), config.jwks().maxAge(), config.jwks().minRefetchInterval(), http,
                        Clock.systemUTC()),
                IdentitySettings.rules(config), config.clockSkew(), Clock.systemUTC());
        this.certificates = IdentitySettings.trust(config)
                .map(trust -> new CertificateVerifier(trust, IdentitySettings.rules(config))).orElse(null);
    }

    public TokenVerifier tokens() {
        return tokens;
    }

    /** Empty when client certificates are not enabled. */
    public Optional<CertificateVerifier> certificates() {
        return Optional.ofNullable(certificates);
    }

    @PreDestroy
    void close() {
        if (certificates != null) {
            certificates.close();
        }
    }
}
