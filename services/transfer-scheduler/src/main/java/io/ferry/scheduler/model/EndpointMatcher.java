package io.ferry.scheduler.model;

import io.ferry.storageurl.StorageUrl;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which registered SE a storage URL belongs to: the SE whose base URL for the URL's scheme has the longest path the
 * URL lies below, compared segment-wise on canonical forms ({@link StorageUrl}), so the answer holds for the path
 * the storage server acts on. A URL with no canonical form is refused before it gets here.
 */
public final class EndpointMatcher {

    private EndpointMatcher() {
    }

    /** An SE and the base URL (canonical) the URL lies below. */
    public record Match<T>(T se, StorageUrl base) {
    }

    public static <T> Optional<Match<T>> match(StorageUrl url, Collection<T> endpoints, Function<T, Map<String, String>> baseUrls) {
        Match<T> best = null;
        for (T se : endpoints) {
            Optional<StorageUrl> base = baseOf(url, baseUrls.apply(se));
            if (base.isPresent() && (best == null || base.get().segments().size() > best.base().segments().size())) {
                best = new Match<>(se, base.get());
            }
        }
        return Optional.ofNullable(best);
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
