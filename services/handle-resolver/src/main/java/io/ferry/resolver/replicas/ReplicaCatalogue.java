package io.ferry.resolver.replicas;

import io.ferry.resolver.api.RankedReplicas;
import io.ferry.resolver.api.Replica;
import io.ferry.resolver.authentication.HandleAccess;
import io.ferry.resolver.api.ReplicaInput;
import io.ferry.resolver.repository.NameStore;
import io.ferry.resolver.repository.ReplicaStore;
import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;
import io.ferry.resolver.api.StorageEndpoint;
import io.ferry.resolver.model.ReplicaPath;
import io.ferry.storageurl.InvalidStorageUrl;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Replicas on registered SEs of the handle an identifier names ({@link LogicalNames}), transport URLs from the SEs'
 * base URLs (canonical storage URLs that lie below the base, {@link ReplicaPath}), and replicas ranked for a
 * destination by rate-aggregator's cost matrix, or by static distance (same SE, same site, elsewhere) when the
 * aggregator cannot answer.
 */
@ApplicationScoped
public class ReplicaCatalogue {

    static final int SAME_SE = 0;
    static final int SAME_SITE = 1;
    static final int ELSEWHERE = 10;

    final LogicalNames names;

    final HandleAccess access;

    final SeCatalogue catalogue;

    final CostSource costs;

    final ReplicaStore replicaStore;

    final NameStore nameStore;

    @Inject
    public ReplicaCatalogue(
            LogicalNames names,
            HandleAccess access,
            SeCatalogue catalogue,
            CostSource costs,
            ReplicaStore replicaStore,
            NameStore nameStore) {
        this.names = names;
        this.access = access;
        this.catalogue = catalogue;
        this.costs = costs;
        this.replicaStore = replicaStore;
        this.nameStore = nameStore;
    }

    @WithSpan
    public Uni<RankedReplicas> replicas(String id, String destination, String protocol, Long filesize) {
        String proto = protocol == null ? "https" : protocol;
        if (!List.of("https", "davs", "http", "root", "gsiftp", "file", "srm").contains(proto)) {
            throw ProblemException.badRequest("protocol", "one of https, davs, http, root, gsiftp, file, srm");
        }
        if (filesize != null && filesize < 0) {
            throw ProblemException.badRequest("filesize", "must not be negative");
        }
        if (id.length() > 1100 || id.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw ProblemException.badRequest("id", "a handle, LFN, GUID or scope:name without control characters");
        }
        return names.handleFor(id).flatMap(handle -> replicaStore.of(handle)
                .flatMap(rows -> nameStore.namesOf(handle).map(n -> Map.entry(n, rows)))
                .flatMap(found -> catalogue.current().flatMap(cat -> {
                    List<ReplicaStore.StoredReplica> rows = found.getValue();
                    long size = filesize != null ? filesize
                            : rows.stream().map(ReplicaStore.StoredReplica::size).filter(java.util.Objects::nonNull).findFirst().orElse(1_000_000_000L);
                    Uni<Map<String, Double>> ranked = destination == null || rows.isEmpty()
                            ? Uni.createFrom().item(Map.of())
                            : costs.cost(String.join(",", rows.stream().map(ReplicaStore.StoredReplica::se).distinct().toList()), destination, size)
                            .map(ReplicaCatalogue::secondsByOrigin)
                            .onFailure().recoverWithItem(e -> null);
                    return ranked.map(seconds -> {
                        String by = destination == null ? "unranked (no destination given)"
                                : seconds != null ? "rate-aggregator /cost (expected seconds for " + size + " bytes)"
                                : "static distance: same SE, same site, elsewhere (rate-aggregator unavailable)";
                        String dstSite = destination == null ? null : cat.find(destination).map(StorageEndpoint::site).orElse(null);
                        List<Replica> replicas = new ArrayList<>();
                        for (ReplicaStore.StoredReplica r : rows) {
                            StorageEndpoint se = cat.find(r.se()).orElse(null);
                            String base = se == null || se.baseUrls() == null ? null : se.baseUrls().get(proto);
                            // only ever the canonical URL below the SE's base (a stored path that would leave it has none)
                            String turl = ReplicaPath.turl(base, r.path()).orElse(null);
                            Integer distance = destination == null ? null : r.se().equals(destination) ? SAME_SE
                                    : se != null && dstSite != null && dstSite.equals(se.site()) ? SAME_SITE : ELSEWHERE;
                            replicas.add(new Replica(r.se(), se == null ? null : se.site(), r.path(), r.size(),
                                    r.adler32(), r.state(), r.createdAt(), turl,
                                    seconds == null ? null : seconds.get(r.se()), distance));
                        }
                        replicas.sort(Comparator.comparing((Replica x) -> !"AVAILABLE".equals(x.state()))
                                .thenComparing(x -> x.turl() == null)
                                .thenComparing(x -> seconds != null && x.expectedSeconds() != null ? x.expectedSeconds() : Double.MAX_VALUE)
                                .thenComparing(x -> x.distance() == null ? 0 : x.distance())
                                .thenComparing(Replica::se));
                        return new RankedReplicas(id, handle, found.getKey(), destination, proto, size, by, cat.basis(), replicas);
                    });
                })));
    }

    static Map<String, Double> secondsByOrigin(JsonNode matrix) {
        Map<String, Double> out = new HashMap<>();
        for (JsonNode cell : matrix.path("cells")) {
            out.put(cell.path("from").asText(), cell.path("seconds").asDouble());
        }
        return out;
    }

    @WithSpan
    public Uni<Void> register(ReplicaInput in) {
        List<Problem.FieldError> errors = new ArrayList<>();
        if (in.se() == null || !in.se().matches("[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")) {
            errors.add(new Problem.FieldError("se", "an SE name is required"));
        }
        String path = null;
        if (in.path() == null || in.path().isBlank() || in.path().length() > 2048 || in.path().contains("://")) {
            errors.add(new Problem.FieldError("path", "a path below the SE's base URL, without a scheme"));
        } else {
            try {
                path = ReplicaPath.canonical(in.path());
            } catch (InvalidStorageUrl e) {
                errors.add(new Problem.FieldError("path", "not a path below the SE's base URL: " + e.getMessage()));
            }
        }
        if (in.size() != null && in.size() < 0) {
            errors.add(new Problem.FieldError("size", "must not be negative"));
        }
        if (in.adler32() != null && !in.adler32().matches("[0-9a-fA-F]{8}")) {
            errors.add(new Problem.FieldError("adler32", "eight hex digits"));
        }
        String state = in.state() == null ? "AVAILABLE" : in.state();
        if (!List.of("AVAILABLE", "COPYING", "UNAVAILABLE", "LOST").contains(state)) {
            errors.add(new Problem.FieldError("state", "one of AVAILABLE, COPYING, UNAVAILABLE, LOST"));
        }
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("INVALID_INPUT", "invalid replica", errors);
        }
        String canonicalPath = path;
        return catalogue.current().flatMap(cat -> {
            if (cat.endpoints().isEmpty() && !"live".equals(cat.basis()) && !"cached".equals(cat.basis())) {
                throw new ProblemException(Problem.of(503, "SE_CATALOGUE_UNAVAILABLE",
                        "transfer-scheduler's SE catalogue cannot be read, so the SE cannot be checked; try again"));
            }
            if (cat.find(in.se()).isEmpty()) {
                throw ProblemException.unprocessable("UNKNOWN_SE", "'" + in.se() + "' is not a registered storage endpoint", Map.of());
            }
            return access.addable(in.handle()).map(a -> a.handle().handle()).flatMap(handle -> replicaStore.put(handle, in.se(),
                    canonicalPath, in.size(), in.adler32() == null ? null : in.adler32().toLowerCase(), state));
        });
    }
}
