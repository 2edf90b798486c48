package io.ferry.resolver.rest;

import io.ferry.identity.model.FerryRoles;
import io.ferry.resolver.api.StorageElementSnapshot;
import io.ferry.resolver.replicas.SeCatalogue;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * The SEs the resolver builds transport URLs for, with how fresh its copy is. The copy is transfer-scheduler's
 * catalogue (base URLs, sites, per-VO storage rights): only operators read it here ({@code handles:admin} or
 * {@code transfer:admin}).
 */
@Path("/storage-elements")
@Produces(MediaType.APPLICATION_JSON)
public class StorageElementResource {

    final SeCatalogue catalogue;

    @Inject
    public StorageElementResource(SeCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    @GET
    @RolesAllowed({FerryRoles.HANDLES_ADMIN, FerryRoles.TRANSFER_ADMIN})
    public Uni<StorageElementSnapshot> list() {
        return catalogue.current();
    }

    /** Re-reads the catalogue now, e.g. right after an SE was registered. */
    @POST
    @Path("refresh")
    @RolesAllowed(FerryRoles.HANDLES_ADMIN)
    public Uni<StorageElementSnapshot> refresh() {
        return catalogue.refresh();
    }
}
