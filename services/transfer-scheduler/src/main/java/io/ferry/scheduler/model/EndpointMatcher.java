package io.ferry.scheduler.model;

import io.ferry.scheduler.repository.StorageEndpoint;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Optional;

/**
 * Which registered SE a URL belongs to: the SE whose base URL for the URL's scheme is a path prefix of the
 * normalised URL. URLs with '..' segments, user info, queries or fragments belong to no SE: Ferry never touches
 * anything outside the registered storage.
 */
public final class EndpointMatcher {

    private EndpointMatcher() {
    }

    public static Optional<StorageEndpoint> match(String url, List<StorageEndpoint> endpoints) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        if (uri.getScheme() == null || uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null
                || uri.getRawPath() == null || uri.getRawPath().contains("/../") || uri.getRawPath().endsWith("/..")
                || uri.getRawPath().contains("%2e%2e") || uri.getRawPath().contains("%2E%2E")) {
            return Optional.empty();
        }
        String normalised = uri.normalize().toString();
        String scheme = uri.getScheme().toLowerCase();
        StorageEndpoint best = null;
        int bestLength = -1;
        for (StorageEndpoint se : endpoints) {
            String base = se.baseUrls.get(scheme);
            if (base == null) {
                continue;
            }
            String prefix = base.endsWith("/") ? base : base + "/";
            if (normalised.startsWith(prefix) && normalised.length() > prefix.length() && prefix.length() > bestLength) {
                best = se;
                bestLength = prefix.length();
            }
        }
        return Optional.ofNullable(best);
    }
}
