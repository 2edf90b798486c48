package io.ferry.scheduler.links;

import io.ferry.identity.security.CurrentCaller;
import io.ferry.problem.ProblemException;
import io.ferry.scheduler.storage.StorageEndpoint;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Link configuration between registered SEs; a link without a row runs on defaults. */
@ApplicationScoped
public class LinkService {

    public static final int DEFAULT_MIN_ACTIVE = 2;
    public static final int DEFAULT_MAX_ACTIVE = 60;

    final CurrentCaller caller;

    @Inject
    public LinkService(CurrentCaller caller) {
        this.caller = caller;
    }

    @WithSession
    public Uni<List<LinkConfig>> list() {
        return LinkConfig.list("order by sourceSe, destSe");
    }

    /** The link's row, or the defaults it runs on when it has none (both SEs must be registered). */
    @WithSession
    public Uni<LinkConfig> get(String source, String dest) {
        return requireRegistered(source, dest).flatMap(v -> LinkConfig.<LinkConfig>find("sourceSe = ?1 and destSe = ?2", source, dest)
                .firstResult().map(l -> l != null ? l : defaults(source, dest)));
    }

    @WithSpan
    @WithTransaction
    public Uni<LinkConfig> put(String source, String dest, Settings in) {
        return requireRegistered(source, dest).flatMap(v -> LinkConfig.<LinkConfig>find("sourceSe = ?1 and destSe = ?2", source, dest)
                .firstResult().flatMap(existing -> {
                    LinkConfig l = existing != null ? existing : defaults(source, dest);
                    if (in.minActive() != null) {
                        l.minActive = in.minActive();
                    }
                    if (in.maxActive() != null) {
                        l.maxActive = in.maxActive();
                    }
                    if (l.minActive > l.maxActive) {
                        throw ProblemException.badRequest("min_active", "must not exceed max_active (" + l.maxActive + ")");
                    }
                    l.nostreams = in.nostreams();
                    l.maxRate = in.maxRate();
                    if (in.optimizerMode() != null) {
                        l.optimizerMode = in.optimizerMode();
                    }
                    l.updatedAt = OffsetDateTime.now(ZoneOffset.UTC);
                    l.updatedBy = caller.subject();
                    return l.persist();
                }));
    }

    @WithSpan
    @WithTransaction
    public Uni<Void> delete(String source, String dest) {
        return LinkConfig.delete("sourceSe = ?1 and destSe = ?2", source, dest).map(n -> {
            if (n == 0) {
                throw ProblemException.notFound("link " + source + " -> " + dest);
            }
            return null;
        });
    }

    private Uni<Void> requireRegistered(String source, String dest) {
        return StorageEndpoint.<StorageEndpoint>list("name in ?1", List.of(source, dest)).map(found -> {
            List<String> known = found.stream().map(se -> se.name).toList();
            List<String> unknown = Stream.of(source, dest).filter(n -> !known.contains(n)).distinct().toList();
            if (!unknown.isEmpty()) {
                throw ProblemException.unprocessable("UNKNOWN_SE", "not registered storage endpoints: " + unknown,
                        Map.of("unknown", unknown));
            }
            return null;
        });
    }

    /**
     * A link's settings as an administrator gives them; null leaves min/max/mode as they are, null streams ask
     * tcp-profiles, a null rate cap removes the cap (like streams, it is part of every PUT).
     */
    public record Settings(Integer minActive, Integer maxActive, Integer nostreams, String optimizerMode, Long maxRate) {
        /** Settings without a rate cap. */
        public Settings(Integer minActive, Integer maxActive, Integer nostreams, String optimizerMode) {
            this(minActive, maxActive, nostreams, optimizerMode, null);
        }
    }

    static LinkConfig defaults(String source, String dest) {
        LinkConfig l = new LinkConfig();
        l.sourceSe = source;
        l.destSe = dest;
        l.minActive = DEFAULT_MIN_ACTIVE;
        l.maxActive = DEFAULT_MAX_ACTIVE;
        l.optimizerMode = "adaptive";
        l.updatedBy = "default";
        return l;
    }
}
