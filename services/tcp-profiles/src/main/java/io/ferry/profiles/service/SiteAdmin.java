package io.ferry.profiles.service;

import io.ferry.problem.ProblemException;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Who is writing: a site administrator may change only the hosts of the site named by the token's
 * {@code site} claim; {@code profiles:admin} may change any site and the global profiles and rules.
 */
@RequestScoped
public class SiteAdmin {

    public static final String WRITE = "profiles:write";
    public static final String ADMIN = "profiles:admin";

    @Inject
    SecurityIdentity identity;

    @Inject
    JsonWebToken token;

    public String subject() {
        return token.getSubject() == null ? "unknown" : token.getSubject();
    }

    public boolean isAdmin() {
        return identity.hasRole(ADMIN);
    }

    /** Global objects (no site) need {@code profiles:admin}; site objects need the caller to administer the site. */
    public void requireOwner(String siteOrNull) {
        if (siteOrNull == null) {
            if (!isAdmin()) {
                throw ProblemException.forbidden("global profiles and rules need the profiles:admin scope");
            }
            return;
        }
        requireSite(siteOrNull);
    }

    /** Refuses with 403 unless the caller administers {@code site}. */
    public void requireSite(String site) {
        if (isAdmin()) {
            return;
        }
        String claimed = token.getClaim("site");
        if (claimed == null || !claimed.equals(site)) {
            throw ProblemException.forbidden("the token administers site '" + (claimed == null ? "none" : claimed)
                    + "', not '" + site + "'");
        }
    }
}
