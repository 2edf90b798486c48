package io.ferry.scheduler.model;

import io.ferry.storageurl.StorageUrl;

import java.util.Collection;

/**
 * What a token obtained by exchange from the submitter's token may do at one side of a copy (WLCG Common JWT
 * Profile): {@code storage.read:<path>} for a source, {@code storage.modify:<path>} for a destination, the path
 * relative to the SE's base URL the file lies below (WLCG scopes name paths in the SE's exported namespace), and
 * the SE's own origin as audience, so the token is good for that one file at that one SE.
 */
public record ExchangeScope(String scope, String audience) {

    /** {@code url} on an SE whose base URLs are {@code bases}; {@code source} false for a destination. */
    public static ExchangeScope of(StorageUrl url, Collection<String> bases, boolean source) {
        String path = url.path();
        for (String raw : bases) {
            StorageUrl base = StorageUrl.tryParse(raw).orElse(null);
            if (base != null && url.isWithin(base)) {
                path = "/" + url.pathBelow(base);
                break;
            }
        }
        String audience = url.scheme() + "://" + url.host() + (url.effectivePort() >= 0 ? ":" + url.effectivePort() : "");
        return new ExchangeScope((source ? "storage.read:" : "storage.modify:") + path, audience);
    }
}
