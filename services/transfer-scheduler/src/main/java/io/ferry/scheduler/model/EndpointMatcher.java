package io.ferry.scheduler.model;

import io.ferry.storageurl.StorageUrl;

import java.util.Collection;
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
