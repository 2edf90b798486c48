package io.ferry.identity.security;

import io.ferry.identity.model.GridCaller;

import java.security.Principal;

/** The principal of a grid identity: named by the caller's subject, and carrying the whole caller. */
public record GridPrincipal(GridCaller caller) implements Principal {

    @Override
    public String getName() {
        return caller.subject();
    }
}
