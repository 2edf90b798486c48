package io.ferry.scheduler.service;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.util.Set;
import java.util.TreeSet;

/**
 * The authenticated caller: an experiment user (VO claim, {@code transfer:submit}), an administrator
 * ({@code transfer:admin}, sees every VO) or another Ferry service.
 */
@RequestScoped
public class Caller {

    public static final String SUBMIT = "transfer:submit";
    public static final String ADMIN = "transfer:admin";

    @Inject
    SecurityIdentity identity;

    @Inject
    JsonWebToken token;

    public String subject() {
        return token.getSubject() == null ? "unknown" : token.getSubject();
    }

    public String vo() {
        return token.getClaim("vo");
    }

    public boolean isAdmin() {
        return identity.hasRole(ADMIN);
    }

    public Set<String> scopes() {
        return new TreeSet<>(identity.getRoles());
    }
}
