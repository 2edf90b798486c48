package io.ferry.identity.security;

import io.ferry.identity.model.GridCaller;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;

import java.util.Optional;
import java.util.Set;

/**
 * The request's caller for blocking code ({@code @Inject CurrentCaller caller}), in place of the caller helpers
 * each service wrote for itself. Reactive code asks {@link GridIdentities#caller} with the deferred identity.
 */
@RequestScoped
public class CurrentCaller {

    @Inject
    SecurityIdentity identity;

    /** The caller; empty for an anonymous request. */
    public Optional<GridCaller> caller() {
        return GridIdentities.caller(identity);
    }

    /** The subject (token {@code sub} or certificate DN), {@code "unknown"} when anonymous. */
    public String subject() {
        return caller().map(GridCaller::subject).orElse("unknown");
    }

    /** The primary VO, or null. */
    public String vo() {
        return caller().map(GridCaller::vo).orElse(null);
    }

    /** The administered site (a site administrator's token), or null. */
    public String site() {
        return caller().map(GridCaller::site).orElse(null);
    }

    public boolean hasRole(String role) {
        return identity.hasRole(role);
    }

    public Set<String> roles() {
        return identity.getRoles();
    }
}
