package io.ferry.identity.security;

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

    @GET
    @Path("/submit")
    @RolesAllowed("transfer:submit")
    public String submit() {
        return "submitted";
    }
}
