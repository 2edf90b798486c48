package io.ferry.scheduler.links;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.scheduler.config.SchedulerConfig;
import io.opentelemetry.instrumentation.annotations.WithSpan;
import io.smallrye.faulttolerance.api.Guard;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.util.TypeLiteral;
import jakarta.inject.Inject;
import org.eclipse.microprofile.rest.client.inject.RestClient;
import org.jboss.logging.Logger;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * TCP streams per file on a link: the link's configured count, else one stream when source and destination are on
 * one host, else tcp-profiles' advice (cached for a while), else one stream, so transfers never wait on tcp-profiles.
 */
@ApplicationScoped
public class StreamAdvice {

    private static final Logger LOG = Logger.getLogger(StreamAdvice.class);

    /** How many streams, and where the number came from ("link config", "tcp-profiles", "fallback"). */
    public record Streams(int streams, String basis, String detail) {
    }

    private record Cached(Streams streams, Instant until) {
    }

    final ProfilesClient profiles;

    final SchedulerConfig config;

    @Inject
    public StreamAdvice(@RestClient ProfilesClient profiles, SchedulerConfig config) {
        this.profiles = profiles;
        this.config = config;
    }

    private static final TypeLiteral<Uni<JsonNode>> ADVICE = new TypeLiteral<Uni<JsonNode>>() {
    };

    /** A guard, not {@code @Timeout}: the wait is configured (ADVICE_TIMEOUT), and an annotation's is fixed at build. */
    private Guard adviceTimeout;

    @PostConstruct
    void guardAdvice() {
        adviceTimeout = Guard.create().withDescription("tcp-profiles stream advice")
                .withTimeout().duration(config.advice().timeout().toMillis(), ChronoUnit.MILLIS).done()
                .build();
    }

    static final Duration FALLBACK_CACHE = Duration.ofSeconds(15);

    private final ConcurrentHashMap<String, Cached> cache = new ConcurrentHashMap<>();

    /**
     * Between two URLs of one host there is no network latency for parallel streams to hide, only CPU for the host to
     * spend on each of them; tcp-profiles, which knows hosts but not which SE URLs share one, would assume a WAN RTT.
     */
    static final Streams SAME_HOST = new Streams(1, "same host", "source and destination are on one host: no latency for parallel streams to hide");

    /** For one copy: as {@link #forLink}, but one stream when no count is configured and both URLs name one host. */
    public Uni<Streams> forCopy(String sourceUrl, String destinationUrl, String sourceSe, String destSe, Integer configured) {
        if (configured == null && sameHost(sourceUrl, destinationUrl)) {
            return Uni.createFrom().item(SAME_HOST);
        }
        return forLink(sourceSe, destSe, configured);
    }

    /** Whether both URLs name the same host (by name, or both a loopback address). */
    static boolean sameHost(String a, String b) {
        String ha = host(a), hb = host(b);
        return ha != null && hb != null && (ha.equalsIgnoreCase(hb) || (loopback(ha) && loopback(hb)));
    }

    private static String host(String url) {
        try {
            return url == null ? null : URI.create(url).getHost();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static boolean loopback(String host) {
        return host.equalsIgnoreCase("localhost") || host.startsWith("127.") || host.equals("[::1]") || host.equals("::1");
    }

    @WithSpan
    public Uni<Streams> forLink(String sourceSe, String destSe, Integer configured) {
        if (configured != null) {
            return Uni.createFrom().item(new Streams(clamp(configured), "link config", "nostreams set on the link"));
        }
        String key = sourceSe + "\u0000" + destSe;
        Cached hit = cache.get(key);
        if (hit != null && hit.until().isAfter(Instant.now())) {
            return Uni.createFrom().item(hit.streams());
        }
        return adviceTimeout.get(() -> profiles.streams(sourceSe, destSe), ADVICE)
                .map(advice -> {
                    List<String> why = new ArrayList<>();
                    advice.path("reasoning").forEach(r -> why.add(r.asText()));
                    Streams s = new Streams(clamp(advice.path("streams").asInt(1)), "tcp-profiles", String.join("; ", why));
                    cache.put(key, new Cached(s, Instant.now().plus(config.advice().cacheFor())));
                    return s;
                })
                .onFailure().recoverWithItem(e -> {
                    LOG.debugf("no stream advice for %s -> %s: %s", sourceSe, destSe, e.toString());
                    Streams s = new Streams(1, "fallback", "tcp-profiles did not answer (" + e.getClass().getSimpleName() + "); one stream");
                    // Not asked again for every file while tcp-profiles is away; retried after a short while.
                    cache.put(key, new Cached(s, Instant.now().plus(FALLBACK_CACHE)));
                    return s;
                });
    }

    public static int clamp(int n) {
        return Math.max(1, Math.min(16, n));
    }
}
