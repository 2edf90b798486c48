package io.ferry.profiles.rest;

import io.ferry.profiles.api.Syntax;
import io.ferry.profiles.model.HostWarnings;
import io.ferry.problem.ProblemException;
import io.ferry.profiles.model.BdpRecommender;
import io.ferry.profiles.model.NicSpeed;
import io.ferry.profiles.model.Recommendation;
import io.ferry.profiles.model.Rtt;
import io.ferry.profiles.model.SysctlCatalog;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code GET /recommendations?nic=10G&rtt=150ms[&streams=4][&mtu=9000][&congestion=bbr][&pool=internal][&receiver_nic=1G]}:
 * a profile from the bandwidth-delay product. Anonymous.
 */
@Path("/recommendations")
@Produces(MediaType.APPLICATION_JSON)
public class RecommendationResource {

    @GET
    public Recommendation recommend(
            @QueryParam("nic") @Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NIC_SPEED))
            String nic,
            @QueryParam("rtt") @Parameter(required = true, schema = @Schema(type = SchemaType.STRING, pattern = Syntax.RTT))
            String rtt,
            @QueryParam("streams") @Parameter(allowEmptyValue = true, schema = @Schema(type = SchemaType.INTEGER, format = "int32", minimum = "1",
                    maximum = "64")) Integer streams,
            @QueryParam("mtu") @Parameter(allowEmptyValue = true, schema = @Schema(type = SchemaType.INTEGER, format = "int32", minimum = "576",
                    maximum = "9216")) Integer mtu,
            @QueryParam("congestion") @Parameter(schema = @Schema(type = SchemaType.STRING,
                    enumeration = {"htcp", "bbr", "cubic"})) String congestion,
            @QueryParam("pool") String pool,
            @QueryParam("receiver_nic") @Parameter(schema = @Schema(type = SchemaType.STRING, pattern = Syntax.NIC_SPEED))
            String receiverNic) {
        if (nic == null) {
            throw ProblemException.badRequest("nic", "the NIC speed is required, e.g. nic=10G");
        }
        int nicMbps = NicSpeed.parseMbps("nic", nic);
        double rttMs = Rtt.parseMillis("rtt", rtt);
        if (streams != null && (streams < 1 || streams > 64)) {
            throw ProblemException.badRequest("streams", "must be between 1 and 64");
        }
        if (mtu != null && (mtu < 576 || mtu > 9216)) {
            throw ProblemException.badRequest("mtu", "must be between 576 and 9216");
        }
        if (congestion != null && !List.of("htcp", "bbr", "cubic").contains(congestion)) {
            throw ProblemException.badRequest("congestion", "one of htcp, bbr, cubic");
        }
        Recommendation r = BdpRecommender.recommend(nicMbps, rttMs, streams, mtu, congestion);
        List<Recommendation.Warning> warnings = new ArrayList<>(r.warnings());
        warnings.addAll(HostWarnings.forContext(nicMbps, pool, receiverNic == null ? null : NicSpeed.parseMbps("receiver_nic", receiverNic),
                r.settings().interfaceSettings().get("txqueuelen"), SysctlCatalog.maxOf(r.settings().sysctls().get("net.ipv4.tcp_rmem"))));
        return new Recommendation(r.inputs(), r.bdpBytes(), r.perStreamBytes(), r.settings(), r.reasons(), warnings);
    }
}
