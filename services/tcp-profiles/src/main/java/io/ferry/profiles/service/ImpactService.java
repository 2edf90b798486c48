package io.ferry.profiles.service;

import io.ferry.problem.ProblemException;
import io.ferry.profiles.api.Impact;
import io.ferry.profiles.api.LinkImpact;
import io.ferry.profiles.client.AggregatorClient;
import io.ferry.profiles.config.ProfilesConfig;
import io.ferry.profiles.repository.Host;
import io.ferry.profiles.repository.ProfileVersion;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Whether a change helped: before/after rates of the links that touch the given hosts' storage elements, from
 * rate-aggregator's comparison. When the aggregator cannot be reached the answer says so instead of failing.
 */
@ApplicationScoped
public class ImpactService {

    final AggregatorClient aggregator;

    final ProfilesConfig config;

    @Inject
    public ImpactService(@RestClient AggregatorClient aggregator, ProfilesConfig config) {
        this.aggregator = aggregator;
        this.config = config;
    }

    @WithSpan
    @WithSession
    public Uni<Impact> impact(String hostName, String site, String change, String window) {
        if ((hostName == null) == (site == null)) {
            throw ProblemException.badRequest("host", "give either host= or site=");
        }
        if (change == null || change.isBlank()) {
            throw ProblemException.badRequest("change", "give the change as a time (2026-11-01T12:00:00Z) or a profile version (name@3)");
        }
        String w = window == null ? "7d" : window;
        Uni<List<Host>> hosts = hostName != null
                ? Host.<Host>findById(hostName).onItem().ifNull().failWith(() -> ProblemException.notFound("host '" + hostName + "'"))
                .map(List::of)
                : Host.list("site", site);
        return hosts.flatMap(list -> changeTime(change).flatMap(at -> {
            TreeSet<String> ses = new TreeSet<>();
            list.forEach(h -> {
                if (h.storageElement != null) {
                    ses.add(h.storageElement);
                }
            });
            if (ses.isEmpty()) {
                return Uni.createFrom().item(new Impact(hostName, site, change, at, w, false,
                        "no storage element is recorded for these hosts, so no links can be compared", List.of()));
            }
            Uni<List<LinkImpact>> all = Uni.createFrom().item(new ArrayList<>());
            for (String se : ses) {
                all = all.flatMap(acc -> aggregator.compare(se, null, at.toString(), w)
                        .ifNoItem().after(config.aggregatorTimeout()).fail()
                        .map(c -> {
                            acc.add(new LinkImpact(se, c));
                            return acc;
                        }));
            }
            return all.map(links -> new Impact(hostName, site, change, at, w, true, null, links))
                    .onFailure().recoverWithItem(e -> new Impact(hostName, site, change, at, w, false,
                            "rate-aggregator could not be asked (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                                    + "); no before/after data", List.of()));
        }));
    }

    /** A time as given, or the creation time of a profile version written {@code name@version}. */
    Uni<OffsetDateTime> changeTime(String change) {
        int at = change.lastIndexOf('@');
        if (at > 0) {
            String name = change.substring(0, at);
            int version;
            try {
                version = Integer.parseInt(change.substring(at + 1));
            } catch (NumberFormatException e) {
                throw ProblemException.badRequest("change", "expected name@version, e.g. wan-10g@3");
            }
            return ProfileVersion.<ProfileVersion>find("profile = ?1 and version = ?2", name, version).firstResult()
                    .onItem().ifNull().failWith(() -> ProblemException.notFound("version " + version + " of profile '" + name + "'"))
                    .map(v -> v.createdAt);
        }
        try {
            return Uni.createFrom().item(OffsetDateTime.parse(change));
        } catch (DateTimeParseException e) {
            throw ProblemException.badRequest("change", "not a time or a profile version: '" + change + "'");
        }
    }
}
