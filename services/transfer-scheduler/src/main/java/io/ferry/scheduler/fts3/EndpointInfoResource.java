package io.ferry.scheduler.fts3;

import io.ferry.identity.model.AuthMethod;
import io.ferry.identity.model.FerryRoles;
import io.ferry.identity.model.GridCaller;
import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
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

    /**
     * FTS3's {@code /whoami}: {@code voms_cred} holds the FQANs of a proxy, or a token's scope values as fts-rest
     * reports them; {@code roles} are the Ferry roles the caller holds.
     */
    public record WhoAmI(String user_dn, List<String> dn, List<String> vos, List<String> vos_id, List<String> voms_cred,
                         List<String> roles, String delegation_id, String base_id, String method, boolean is_root,
                         Map<String, String> level) {

        static WhoAmI of(GridCaller caller) {
            boolean admin = caller.hasRole(FerryRoles.TRANSFER_ADMIN);
            List<String> credentials = caller.method() == AuthMethod.CERTIFICATE
                    ? caller.fqans() : caller.scopes().stream().sorted().toList();
            return new WhoAmI(caller.dn(), List.of(caller.dn()), caller.vos(),
                    caller.vos().stream().map(vo -> Fts3Ids.voId(vo).toString()).toList(), credentials,
                    caller.roles().stream().sorted().toList(), caller.delegationId(), Fts3Ids.BASE_ID.toString(),
                    caller.method().fts3Name(), admin, Map.of("transfer", admin ? "all" : "vo"));
        }
    }

    final CurrentCaller caller;

    @Inject
    public EndpointInfoResource(CurrentCaller caller) {
        this.caller = caller;
    }

    @GET
    public EndpointInfo info() {
        return new EndpointInfo(new Version(3, 12, 0), new Version(8, 0, 0), new Version(1, 0, 0), "ferry transfer-scheduler");
    }

    @GET
    @Path("whoami")
    @Authenticated
    public WhoAmI whoami() {
        return WhoAmI.of(caller.caller().orElseThrow(() ->
                new ProblemException(Problem.of(401, "UNAUTHENTICATED", "whoami needs a token or a client certificate"))));
    }
}
