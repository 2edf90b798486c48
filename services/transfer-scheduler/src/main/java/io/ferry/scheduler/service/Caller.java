package io.ferry.scheduler.service;

import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.jwt.JsonWebToken;

import java.util.Set;
import java.util.TreeSet;

/**
 * The authenticated caller: an experiment user (VO claim; {@code transfer:read} to watch its VO's jobs,
 * {@code transfer:submit} to also submit and cancel them), an administrator ({@code transfer:admin}, every VO)
 * or another Ferry service.
 */
@RequestScoped
public class Caller {

    /** Reads the jobs of the token's VO: lists, files, retries, event streams. */
    public static final String READ = "transfer:read";
    /** Submits and cancels the jobs of the token's VO, and reads them. */
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
