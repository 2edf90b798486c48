package io.ferry.scheduler.rest;

import io.ferry.scheduler.service.Caller;
import io.quarkus.security.Authenticated;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

import java.util.List;
import java.util.Map;

/**
 * FTS3's discovery calls. FTS3 clients read {@code GET /} first and check {@code api.major}; Ferry speaks
 * the FTS3 REST API 3.x job calls, so it announces that version.
 */
@Path("/")
@Produces(MediaType.APPLICATION_JSON)
public class EndpointInfoResource {

    public record Version(int major, int minor, int patch) {
    }

    public record EndpointInfo(Version api, Version schema, Version delegation, String service) {
    }

    public record WhoAmI(String user_dn, List<String> dn, List<String> vos, List<String> vos_id, List<String> roles,
                         String delegation_id, String method, boolean is_root, Map<String, String> level) {
    }

    @Inject
    Caller caller;

    @GET
    public EndpointInfo info() {
        return new EndpointInfo(new Version(3, 12, 0), new Version(8, 0, 0), new Version(1, 0, 0), "ferry transfer-scheduler");
    }

    @GET
    @Path("whoami")
    @Authenticated
    public WhoAmI whoami() {
        List<String> vos = caller.vo() == null ? List.of() : List.of(caller.vo());
        return new WhoAmI(caller.subject(), List.of(caller.subject()), vos, vos, List.copyOf(caller.scopes()),
                caller.subject(), "oauth2", caller.isAdmin(),
                Map.of("transfer", caller.isAdmin() ? "all" : "vo"));
    }
}
