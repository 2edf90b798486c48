package io.ferry.identity.security;

import io.ferry.identity.model.FerryRoles;
import io.ferry.identity.model.GridCaller;
import io.quarkus.security.Authenticated;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** Endpoints that need a caller, as the services' resources do. */
@Path("/identity-test")
public class CallerTestResource {

    @Inject
    SecurityIdentity identity;

    @GET
    @Path("/whoami")
    @Authenticated
    public GridCaller whoami() {
        return GridIdentities.caller(identity).orElseThrow();
    }

    @Inject
    CurrentCaller caller;

    @GET
    @Path("/submit")
    @RolesAllowed(FerryRoles.TRANSFER_SUBMIT)
    public String submit() {
        return "submitted for " + caller.vo() + " by " + caller.subject();
    }
}
