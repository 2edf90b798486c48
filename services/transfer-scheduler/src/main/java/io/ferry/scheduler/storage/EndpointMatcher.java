package io.ferry.scheduler.storage;

import io.ferry.storageurl.StorageUrl;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which registered SE a storage URL belongs to: the SE whose base URL for the URL's scheme has the longest path the
 * URL lies below, compared segment-wise on canonical forms ({@link StorageUrl}), so the answer holds for the path
 * the storage server acts on. A URL with no canonical form is refused before it gets here. Equal bases of one
 * scheme cannot be registered; should two still tie, the SE whose name sorts first wins, so the answer never
 * depends on the order the SEs were read in.
 */
public final class EndpointMatcher {

    private EndpointMatcher() {
    }

    /** An SE and the base URL (canonical) the URL lies below. */
    public record Match<T>(T se, StorageUrl base) {
    }

    public static <T> Optional<Match<T>> match(StorageUrl url, Collection<T> endpoints, Function<T, Map<String, String>> baseUrls,
                                               Function<T, String> name) {
        Match<T> best = null;
        for (T se : endpoints) {
            Optional<StorageUrl> base = baseOf(url, baseUrls.apply(se));
            if (base.isEmpty()) {
                continue;
            }
            int longer = best == null ? 1 : Integer.compare(base.get().segments().size(), best.base().segments().size());
            if (longer > 0 || longer == 0 && name.apply(se).compareTo(name.apply(best.se())) < 0) {
                best = new Match<>(se, base.get());
            }
        }
        return Optional.ofNullable(best);
    }

    /**
     * The SEs' base URLs parsed once, for the many URLs of one submission: {@link Index#match} answers as
     * {@link #match} does, without parsing every SE's base again for every URL.
     */
    public static <T> Index<T> index(Collection<T> endpoints, Function<T, Map<String, String>> baseUrls, Function<T, String> name) {
        Map<String, List<Candidate<T>>> byScheme = new HashMap<>();
        for (T se : endpoints) {
            Map<String, String> bases = baseUrls.apply(se);
            if (bases == null) {
                continue;
            }
            bases.forEach((scheme, raw) -> StorageUrl.tryParse(raw)
                    .ifPresent(base -> byScheme.computeIfAbsent(scheme, s -> new ArrayList<>()).add(new Candidate<>(se, name.apply(se), base))));
        }
        return new Index<>(byScheme);
    }

    private record Candidate<T>(T se, String name, StorageUrl base) {
    }

    /** Registered SEs with their base URLs parsed, by scheme, in the order the SEs were given. */
    public static final class Index<T> {

        private final Map<String, List<Candidate<T>>> byScheme;

        private Index(Map<String, List<Candidate<T>>> byScheme) {
            this.byScheme = byScheme;
        }

        /** As {@link EndpointMatcher#match}; the base of a match is the same instance for every URL below it. */
        public Optional<Match<T>> match(StorageUrl url) {
            Candidate<T> best = null;
            for (Candidate<T> c : byScheme.getOrDefault(url.scheme(), List.of())) {
                if (!url.isWithin(c.base())) {
                    continue;
                }
                int longer = best == null ? 1 : Integer.compare(c.base().segments().size(), best.base().segments().size());
                if (longer > 0 || longer == 0 && c.name().compareTo(best.name()) < 0) {
                    best = c;
                }
            }
            return best == null ? Optional.empty() : Optional.of(new Match<>(best.se(), best.base()));
        }
    }

    /** Whether two base URLs name the same place (scheme, host, port and decoded segments; a trailing '/' aside). */
    public static boolean sameBase(StorageUrl a, StorageUrl b) {
        return a.scheme().equals(b.scheme()) && a.host().equals(b.host()) && a.port() == b.port() && a.segments().equals(b.segments());
    }

    /** The SE's base URL for the URL's scheme, if the URL lies below it. */
    public static Optional<StorageUrl> baseOf(StorageUrl url, Map<String, String> baseUrls) {
        String raw = baseUrls == null ? null : baseUrls.get(url.scheme());
        if (raw == null) {
            return Optional.empty();
        }
        return StorageUrl.tryParse(raw).filter(url::isWithin);
    }
}
