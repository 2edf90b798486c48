package io.ferry.identity.security;

import io.ferry.identity.model.GridCaller;
import io.ferry.identity.model.Refusal;
import io.ferry.problem.Problem;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.SecurityIdentity;

import java.util.Map;
import java.util.Optional;

/** Where a grid identity keeps its caller, and how a refusal travels to the 401 answer. */
public final class GridIdentities {

    /** The attribute of a failure holding the {@link Refusal}. */
    public static final String REFUSAL_ATTRIBUTE = "ferry.identity.refusal";

    private GridIdentities() {
    }

    /** The caller behind {@code identity}; empty for anonymous requests and identities of other mechanisms. */
    public static Optional<GridCaller> caller(SecurityIdentity identity) {
        return identity != null && identity.getPrincipal() instanceof GridPrincipal p ? Optional.of(p.caller()) : Optional.empty();
    }

    /**
     * A refusal as Quarkus's authentication failure, carrying the 401 problem document (code and reason) that
     * problem-json's handlers answer it with.
     */
    public static AuthenticationFailedException failure(Refusal refusal) {
        Problem problem = Problem.of(401, refusal.code().name(), refusal.detail());
        return new AuthenticationFailedException(refusal.detail(),
                Map.of(Problem.AUTHENTICATION_FAILURE_ATTRIBUTE, problem, REFUSAL_ATTRIBUTE, refusal));
    }
}
