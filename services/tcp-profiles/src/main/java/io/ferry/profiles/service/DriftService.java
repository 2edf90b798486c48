package io.ferry.profiles.service;

import io.ferry.problem.ProblemException;
import io.ferry.profiles.api.Drift;
import io.ferry.profiles.api.SiteDrift;
import io.ferry.profiles.model.ConfigText;
import io.ferry.profiles.model.DriftCheck;
import io.ferry.profiles.model.ObservedHost;
import io.ferry.profiles.repository.Host;
import io.ferry.profiles.repository.HostObservation;
import io.ferry.profiles.api.ObservationInput;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Observations of what hosts run, and their drift from the effective profile. */
@ApplicationScoped
public class DriftService {

    final SiteAdmin caller;

    final AssignmentService assignments;

    final ProfileService profiles;

    @Inject
    public DriftService(SiteAdmin caller, AssignmentService assignments, ProfileService profiles) {
        this.caller = caller;
        this.assignments = assignments;
        this.profiles = profiles;
    }

    @WithSpan
    @WithTransaction
    public Uni<HostObservation> record(String hostName, ObservationInput in) {
        if ((in.sysctlText() == null || in.sysctlText().isBlank()) && (in.ipLinkText() == null || in.ipLinkText().isBlank())) {
            throw ProblemException.badRequest("sysctl", "send the output of `sysctl -a` and/or `ip link`");
        }
        requireText("sysctl", in.sysctlText());
        requireText("ip_link", in.ipLinkText());
        Map<String, String> sysctls = ObservedHost.parseSysctl(in.sysctlText());
        Map<String, Map<String, Integer>> interfaces = ObservedHost.parseIpLink(in.ipLinkText());
        if (in.sysctlText() != null && !in.sysctlText().isBlank() && sysctls.isEmpty()) {
            throw ProblemException.badRequest("sysctl", "no 'key = value' lines found; expected the output of `sysctl -a`");
        }
        if (in.ipLinkText() != null && !in.ipLinkText().isBlank() && interfaces.isEmpty()) {
            throw ProblemException.badRequest("ip_link", "no interfaces found; expected the output of `ip link`");
        }
        OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
        if (in.observedAt() != null && in.observedAt().isAfter(now.plusMinutes(10))) {
            throw ProblemException.badRequest("observed_at", "lies in the future");
        }
        if (in.observedAt() != null && in.observedAt().getYear() < 1970) {
            throw ProblemException.badRequest("observed_at", "lies before 1970");
        }
        return Host.<Host>findById(hostName)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("host '" + hostName + "'"))
                .flatMap(host -> {
                    caller.requireSite(host.site);
                    HostObservation o = new HostObservation();
                    o.host = host.name;
                    o.observedAt = in.observedAt() == null ? now : in.observedAt();
                    o.sysctls = sysctls;
                    o.interfaces = interfaces;
                    o.rawSysctl = in.sysctlText();
                    o.rawIpLink = in.ipLinkText();
                    o.receivedBy = caller.subject();
                    return o.persist();
                });
    }

    @WithSession
    public Uni<List<HostObservation>> history(String hostName, int limit) {
        return Host.<Host>findById(hostName)
                .onItem().ifNull().failWith(() -> ProblemException.notFound("host '" + hostName + "'"))
                .flatMap(h -> HostObservation.<HostObservation>find("host = ?1 order by observedAt desc, id desc", hostName)
                        .page(0, limit).list());
    }

    /** The latest observation of a host, or null (call inside a session). */
    public Uni<HostObservation> latest(String hostName) {
        return HostObservation.<HostObservation>find("host = ?1 order by observedAt desc, id desc", hostName).firstResult();
    }

    @WithSpan
    @WithSession
    public Uni<Drift> drift(String hostName) {
        return assignments.effective(hostName).flatMap(a -> latest(hostName).map(o -> driftOf(a, o)));
    }

    @WithSpan
    @WithSession
    public Uni<SiteDrift> siteDrift(String site) {
        // One read of the profiles, the rules and the latest observations for the whole site, not one per host.
        return Host.<Host>list("site = ?1 order by name", site).flatMap(hosts -> assignments.chooser().flatMap(choose ->
                HostObservation.<HostObservation>list("host in ?1 order by host, observedAt desc, id desc",
                                hosts.stream().map(h -> h.name).toList())
                        .map(observations -> {
                            Map<String, HostObservation> latest = new LinkedHashMap<>();
                            observations.forEach(o -> latest.putIfAbsent(o.host, o));
                            List<Drift> list = new ArrayList<>();
                            for (Host h : hosts) {
                                list.add(driftOf(choose.apply(h), latest.get(h.name)));
                            }
                            Map<Drift.Status, Long> counts = new LinkedHashMap<>();
                            for (Drift.Status s : Drift.Status.values()) {
                                counts.put(s, list.stream().filter(d -> d.status() == s).count());
                            }
                            return new SiteDrift(site, counts, list);
                        })));
    }

    static Drift driftOf(AssignmentService.Assignment a, HostObservation o) {
        Host h = a.host();
        if (a.profile() == null) {
            return new Drift(h.name, h.site, Drift.Status.NO_PROFILE, null, null, null, o == null ? null : o.observedAt, List.of());
        }
        String profile = a.profile().profile().name;
        int version = a.profile().version().version;
        if (o == null) {
            return new Drift(h.name, h.site, Drift.Status.NO_OBSERVATION, profile, version, a.rule().name, null, List.of());
        }
        List<DriftCheck.Difference> diffs = DriftCheck.compare(a.profile().settings(), new ObservedHost(o.sysctls, o.interfaces));
        return new Drift(h.name, h.site, diffs.isEmpty() ? Drift.Status.IN_SYNC : Drift.Status.DRIFTED, profile, version,
                a.rule().name, o.observedAt, diffs);
    }

    /** Command output is lines of text: tabs and line breaks, no other control character (PostgreSQL cannot store NUL). */
    private static void requireText(String field, String text) {
        if (text != null && !ConfigText.isSingleLine(text.replace('\n', ' ').replace('\r', ' ').replace('\t', ' '))) {
            throw ProblemException.badRequest(field, "must be command output: lines of text without control characters");
        }
    }
}
