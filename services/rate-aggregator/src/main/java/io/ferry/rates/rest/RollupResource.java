package io.ferry.rates.rest;

import io.ferry.identity.model.FerryRoles;
import io.ferry.rates.api.Drained;
import io.ferry.rates.service.RollupWorker;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** Folds every queued record into the rollups now (rollups otherwise trail ingest by about a second). */
@Path("/rollups")
@Produces(MediaType.APPLICATION_JSON)
public class RollupResource {

    final RollupWorker worker;

    @Inject
    public RollupResource(RollupWorker worker) {
        this.worker = worker;
    }

    @POST
    @Path("flush")
    @RolesAllowed(FerryRoles.RATES_WRITE)
    public Uni<Drained> flush() {
        return worker.drainAll();
    }
}
