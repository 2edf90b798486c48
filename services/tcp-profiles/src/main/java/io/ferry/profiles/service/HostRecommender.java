package io.ferry.profiles.service;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.ProblemException;
import io.ferry.profiles.api.HostRecommendation;
import io.ferry.profiles.api.PeerRtt;
import io.ferry.profiles.client.AggregatorClient;
import io.ferry.profiles.config.ProfilesConfig;
import io.ferry.profiles.model.BdpRecommender;
import io.ferry.profiles.model.Recommendation;
import io.ferry.profiles.model.Rtt;
import io.ferry.profiles.model.SysctlCatalog;
import io.ferry.profiles.repository.Host;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recommendation for one host, sized for the longest path it serves: the RTTs to its peers are given
 * ({@code peers=host:150ms,...}) or taken from rate-aggregator's latest network measurements.
 */
@ApplicationScoped
public class HostRecommender {

    final AggregatorClient aggregator;

    final ProfilesConfig config;

    @Inject
    public HostRecommender(@RestClient AggregatorClient aggregator, ProfilesConfig config) {
        this.aggregator = aggregator;
        this.config = config;
    }

    @WithSpan
    @WithSession
    public Uni<HostRecommendation> recommend(String hostName, String peers, Integer streams) {
        return Host.<Host>findById(hostName)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("host '" + hostName + "'"))
                .flatMap(host -> rtts(host, peers).flatMap(given -> withPeerNics(given.peers()).map(list -> {
                    if (list.isEmpty()) {
                        throw ProblemException.unprocessable("NO_RTT", "no RTT is known for host '" + hostName
                                + "': pass peers=host:150ms,... or record measurements in rate-aggregator", Map.of());
                    }
                    double worst = list.stream().mapToDouble(PeerRtt::rttMs).max().orElseThrow();
                    Recommendation r = BdpRecommender.recommend(host.nicSpeedMbps, worst, streams,
                            host.mtu >= 9000 ? host.mtu : null, null);
                    Integer slowest = list.stream().map(PeerRtt::peerNicMbps).filter(java.util.Objects::nonNull)
                            .min(Integer::compare).orElse(null);
                    List<Recommendation.Warning> warnings = new ArrayList<>(r.warnings());
                    warnings.addAll(io.ferry.profiles.model.HostWarnings.forContext(host.nicSpeedMbps, host.labels.get("pool"),
                            slowest, r.settings().interfaceSettings().get("txqueuelen"),
                            SysctlCatalog.maxOf(r.settings().sysctls().get("net.ipv4.tcp_rmem"))));
                    return new HostRecommendation(host.name, given.basis(), list,
                            new Recommendation(r.inputs(), r.bdpBytes(), r.perStreamBytes(), r.settings(), r.reasons(), warnings));
                })));
    }

    record Given(String basis, Map<String, Double> peers) {
    }

    private Uni<Given> rtts(Host host, String peers) {
        if (peers != null && !peers.isBlank()) {
            Map<String, Double> out = new LinkedHashMap<>();
            for (String item : peers.split(",")) {
                int colon = item.lastIndexOf(':');
                if (colon <= 0) {
                    throw ProblemException.badRequest("peers", "expected host:rtt items, e.g. peers=cmsstor.fnal.example:110ms");
                }
                out.put(item.substring(0, colon).trim().toLowerCase(), Rtt.parseMillis("peers", item.substring(colon + 1)));
            }
            return Uni.createFrom().item(new Given("given", out));
        }
        return aggregator.latestMeasurements(host.name)
                .ifNoItem().after(config.aggregatorTimeout()).fail()
                .map(json -> {
                    Map<String, Double> out = new LinkedHashMap<>();
                    for (JsonNode m : json.path("peers")) {
                        if (m.hasNonNull("rtt_ms")) {
                            out.put(m.path("peer").asText(), m.path("rtt_ms").asDouble());
                        }
                    }
                    return new Given("rate-aggregator measurements", out);
                })
                .onFailure().recoverWithItem(e -> new Given("rate-aggregator unreachable: " + e.getMessage(), Map.of()));
    }

    private Uni<List<PeerRtt>> withPeerNics(Map<String, Double> rtts) {
        if (rtts.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return Host.<Host>list("name in ?1", List.copyOf(rtts.keySet())).map(known -> {
            Map<String, Integer> nic = new LinkedHashMap<>();
            known.forEach(h -> nic.put(h.name, h.nicSpeedMbps));
            List<PeerRtt> out = new ArrayList<>();
            rtts.forEach((peer, rtt) -> out.add(new PeerRtt(peer, rtt, nic.get(peer))));
            return out;
        });
    }
}
