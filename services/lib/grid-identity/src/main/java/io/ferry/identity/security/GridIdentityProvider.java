package io.ferry.identity.security;

import io.ferry.identity.model.GridCaller;
import io.ferry.identity.model.Refusal;
import io.quarkus.security.credential.TokenCredential;
import io.quarkus.security.identity.AuthenticationRequestContext;
import io.quarkus.security.identity.IdentityProvider;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Verifies what {@link GridAuthenticationMechanism} found, off the event loop (a key set may have to be fetched),
 * and makes the identity: the caller as principal, its Ferry roles as roles.
 */
@ApplicationScoped
public class GridIdentityProvider implements IdentityProvider<GridCredentialRequest> {

    @Inject
    GridVerifiers verifiers;

    @Override
    public Class<GridCredentialRequest> getRequestType() {
        return GridCredentialRequest.class;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(GridCredentialRequest request, AuthenticationRequestContext context) {
        return context.runBlocking(() -> identity(request));
    }

    SecurityIdentity identity(GridCredentialRequest request) {
        try {
            if (request.bearerToken() != null) {
                GridCaller caller = verifiers.tokens().verify(request.bearerToken());
                // Kept in memory with the identity for token exchange toward storage; never logged or stored.
                return identity(caller).addCredential(new TokenCredential(request.bearerToken(), "bearer")).build();
            }
            return identity(verifiers.certificates().orElseThrow(() -> Refusal.of(Refusal.Code.CERTIFICATE_INVALID,
                    "client certificates are not accepted here").exception()).verify(request.chain())).build();
        } catch (Refusal.RefusedException e) {
            throw GridIdentities.failure(e.refusal());
        }
    }

    static QuarkusSecurityIdentity.Builder identity(GridCaller caller) {
        return QuarkusSecurityIdentity.builder().setPrincipal(new GridPrincipal(caller)).addRoles(caller.roles());
    }
}
