package io.ferry.profiles.service;

import io.ferry.problem.ProblemException;
import io.ferry.profiles.api.Advice;
import io.ferry.profiles.api.End;
import io.ferry.profiles.config.ProfilesConfig;
import io.ferry.profiles.model.BdpRecommender;
import io.ferry.profiles.model.NicSpeed;
import io.ferry.profiles.model.Rtt;
import io.ferry.profiles.model.SysctlCatalog;
import io.ferry.profiles.repository.Host;
import io.ferry.profiles.repository.HostObservation;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;

/**
 * How many TCP streams a file copy needs: ceil(BDP / effective maximum window), clamped to 1..16. The window is
 * the smaller of the sender's send and the receiver's receive autotuning limit, taken from what the hosts report
 * they run, else from their effective profile, else the Linux defaults.
 */
@ApplicationScoped
public class StreamAdvisor {

    static final long LINUX_DEFAULT_WMEM_MAX = 4_194_304L;
    static final long LINUX_DEFAULT_RMEM_MAX = 6_291_456L;
    static final int ASSUMED_NIC_MBPS = 10_000;

    final AssignmentService assignments;

    final ProfilesConfig config;

    @Inject
    public StreamAdvisor(AssignmentService assignments, ProfilesConfig config) {
        this.assignments = assignments;
        this.config = config;
    }

    @WithSpan
    @WithSession
    public Uni<Advice> advise(String sourceSe, String sourceHost, String destinationSe, String destinationHost, String rtt) {
        if ((sourceSe == null) == (sourceHost == null)) {
            throw ProblemException.badRequest("source_se", "give exactly one of source_se and source_host");
        }
        if ((destinationSe == null) == (destinationHost == null)) {
            throw ProblemException.badRequest("destination_se", "give exactly one of destination_se and destination_host");
        }
        double rttMs = Rtt.parseMillis("rtt", rtt == null ? config.defaultRtt() : rtt);
        String rttBasis = rtt == null ? "assumed (ferry.profiles.default-rtt); pass rtt= for a measured value" : "given";
        return end(sourceSe, sourceHost, "net.ipv4.tcp_wmem", LINUX_DEFAULT_WMEM_MAX)
                .flatMap(src -> end(destinationSe, destinationHost, "net.ipv4.tcp_rmem", LINUX_DEFAULT_RMEM_MAX)
                        .map(dst -> advice(src, dst, rttMs, rttBasis)));
    }

    static Advice advice(End src, End dst, double rttMs, String rttBasis) {
        int nic = Math.min(src.nicMbps(), dst.nicMbps());
        long bdp = Math.round(nic * 1e6 / 8 * rttMs / 1000);
        long window = Math.min(src.windowBytes(), dst.windowBytes());
        int needed = (int) Math.min(Integer.MAX_VALUE, (bdp + window - 1) / Math.max(window, 1));
        int streams = Math.max(1, Math.min(16, needed));
        List<String> why = new ArrayList<>();
        why.add(String.format("BDP = %s (slower NIC) x %.1f ms = %s", NicSpeed.format(nic), rttMs, BdpRecommender.human(bdp)));
        why.add("window = min(sender send limit " + BdpRecommender.human(src.windowBytes()) + ", receiver receive limit "
                + BdpRecommender.human(dst.windowBytes()) + ") = " + BdpRecommender.human(window));
        why.add("streams = ceil(BDP / window) = " + needed + (needed != streams ? ", clamped to " + streams + " (1..16)" : ""));
        return new Advice(streams, bdp, window, rttMs, rttBasis, src, dst, why);
    }

    private Uni<End> end(String se, String hostName, String windowKey, long kernelDefault) {
        Uni<List<Host>> hosts = hostName != null
                ? Host.<Host>findById(hostName.toLowerCase()).onItem().ifNull()
                .failWith(() -> ProblemException.notFound("host '" + hostName + "'")).map(List::of)
                : Host.list("storageElement = ?1 order by name", se);
        return hosts.flatMap(list -> {
            if (list.isEmpty()) {
                return Uni.createFrom().item(new End(se, hostName, List.of(), ASSUMED_NIC_MBPS,
                        kernelDefault, "no hosts registered for " + se + ": assumed " + NicSpeed.format(ASSUMED_NIC_MBPS)
                        + " and the Linux default " + windowKey + " maximum"));
            }
            List<String> names = list.stream().map(h -> h.name).toList();
            List<String> bases = new ArrayList<>();
            // Profiles, rules and observations are read once for all the SE's hosts.
            Uni<List<long[]>> windows = assignments.chooser().flatMap(choose -> HostObservation.<HostObservation>list(
                    "host in ?1 order by host, observedAt desc, id desc", names).map(observations -> {
                java.util.Map<String, HostObservation> latest = new java.util.HashMap<>();
                observations.forEach(o -> latest.putIfAbsent(o.host, o));
                List<long[]> acc = new ArrayList<>();
                for (Host h : list) {
                    HostObservation obs = latest.get(h.name);
                    Long observed = obs == null ? null : SysctlCatalog.maxOf(obs.sysctls.get(windowKey));
                    if (observed != null) {
                        acc.add(new long[]{observed});
                        bases.add(h.name + ": observed");
                        continue;
                    }
                    AssignmentService.Assignment a = choose.apply(h);
                    Long profiled = a.profile() == null ? null : SysctlCatalog.maxOf(a.profile().settings().sysctls().get(windowKey));
                    acc.add(new long[]{profiled == null ? kernelDefault : profiled});
                    bases.add(h.name + (profiled == null ? ": Linux default" : ": profile " + a.profile().profile().name));
                }
                return acc;
            }));
            return windows.map(ws -> new End(se, hostName, list.stream().map(h -> h.name).toList(),
                    list.stream().mapToInt(h -> h.nicSpeedMbps).min().orElse(ASSUMED_NIC_MBPS),
                    ws.stream().mapToLong(w -> w[0]).min().orElse(kernelDefault),
                    "smallest " + windowKey + " maximum of " + String.join(", ", bases)));
        });
    }
}
