package io.ferry.profiles.service;

import io.ferry.identity.model.FerryRoles;
import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.ProblemException;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;

/**
 * Who is writing: a site administrator may change only the hosts of the site its credential names (the token's
 * {@code site} claim); {@code profiles:admin} may change any site and the global profiles and rules.
 */
@RequestScoped
public class SiteAdmin {

    final CurrentCaller caller;

    @Inject
    public SiteAdmin(CurrentCaller caller) {
        this.caller = caller;
    }

    public String subject() {
        return caller.subject();
    }

    public boolean isAdmin() {
        return caller.hasRole(FerryRoles.PROFILES_ADMIN);
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
        String claimed = caller.site();
        if (claimed == null || !claimed.equals(site)) {
            throw ProblemException.forbidden("the token administers site '" + (claimed == null ? "none" : claimed)
                    + "', not '" + site + "'");
        }
    }
}
