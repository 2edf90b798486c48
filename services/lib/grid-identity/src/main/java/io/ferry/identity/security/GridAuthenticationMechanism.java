package io.ferry.identity.security;

import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.quarkus.vertx.http.runtime.security.HttpCredentialTransport;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Set;

/**
 * Finds the caller's credential in a request: a bearer token in {@code Authorization}, else the client certificate
 * chain of the TLS connection (a proxy or an end-entity certificate). A request with neither is anonymous; a
 * token wins over a certificate, as in FTS3.
 */
@ApplicationScoped
public class GridAuthenticationMechanism implements HttpAuthenticationMechanism {

    private static final String BEARER = "bearer ";

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identities) {
        AuthenticationRequest request = credential(context.request().getHeader(HttpHeaders.AUTHORIZATION),
                context.request().isSSL() ? context.request().sslSession() : null);
        return request == null ? Uni.createFrom().nullItem() : identities.authenticate(request);
    }

    /** The request's credential, or null when it presents none. */
    static GridCredentialRequest credential(String authorization, SSLSession tls) {
        if (authorization != null && authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return GridCredentialRequest.bearer(authorization.substring(BEARER.length()).trim());
        }
        X509Certificate[] chain = peerChain(tls);
        return chain.length == 0 ? null : GridCredentialRequest.certificates(chain);
    }

    private static X509Certificate[] peerChain(SSLSession tls) {
        if (tls == null) {
            return new X509Certificate[0];
        }
        try {
            Certificate[] peer = tls.getPeerCertificates();
            return Arrays.stream(peer).filter(X509Certificate.class::isInstance).map(X509Certificate.class::cast)
                    .toArray(X509Certificate[]::new);
        } catch (SSLPeerUnverifiedException e) {
            return new X509Certificate[0];
        }
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer"));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of(GridCredentialRequest.class);
    }

    @Override
    public Uni<HttpCredentialTransport> getCredentialTransport(RoutingContext context) {
        return Uni.createFrom().item(new HttpCredentialTransport(HttpCredentialTransport.Type.AUTHORIZATION, "bearer"));
    }
}
