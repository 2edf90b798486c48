package io.ferry.scheduler.replicas;

import io.ferry.identity.model.FerryRoles;
import io.ferry.scheduler.config.SchedulerConfig;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.LinkedHashMap;
import java.util.Map;

/** FTS3's {@code /status/hosts} ({@code fts-rest-server-status}): what each scheduler replica is doing now. */
@Path("/status")
@Produces(MediaType.APPLICATION_JSON)
public class ServerStatusResource {

    /** One host's counts, under FTS3's names. */
    public record HostActivity(long active, long staging) {
    }

    private final Replicas replicas;
    private final SchedulerConfig config;

    @Inject
    ServerStatusResource(Replicas replicas, SchedulerConfig config) {
        this.replicas = replicas;
        this.config = config;
    }

    @GET
    @Path("hosts")
    @RolesAllowed({FerryRoles.TRANSFER_READ, FerryRoles.TRANSFER_SUBMIT, FerryRoles.TRANSFER_ADMIN})
    public Uni<Map<String, HostActivity>> hosts() {
        return replicas.activity(config.engine().heartbeatTimeout()).map(all -> {
            Map<String, HostActivity> hosts = new LinkedHashMap<>();
            all.forEach(a -> hosts.put(a.name(), new HostActivity(a.active(), a.staging())));
            return hosts;
        });
    }
}
