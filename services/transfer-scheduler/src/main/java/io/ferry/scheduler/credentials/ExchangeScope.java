package io.ferry.scheduler.credentials;

import io.ferry.storageurl.StorageUrl;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What a token obtained from the submitter's token may do at one side of a copy (WLCG Common JWT Profile):
 * {@code storage.read:<path>} for a source, {@code storage.modify:<path>} for a destination, the path relative to
 * the SE's base URL the file lies below (WLCG scopes name paths in the SE's exported namespace), and the SE's own
 * origin as audience, so the token is good at that one SE only. One token serves all files of a job on one side of
 * one SE: {@link #widenedTo} gives the narrowest scope that covers them.
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
        return new ExchangeScope((source ? "storage.read:" : "storage.modify:") + path, origin(url));
    }

    /** {@code scheme://host:port}, the port always named: the audience storage checks a token against. */
    public static String origin(StorageUrl url) {
        return url.scheme() + "://" + url.host() + (url.effectivePort() >= 0 ? ":" + url.effectivePort() : "");
    }

    /**
     * The narrowest scope covering this one and {@code other} (same verb and audience): the path segments they share,
     * {@code /} when they share none.
     */
    public ExchangeScope widenedTo(ExchangeScope other) {
        int colon = scope.indexOf(':');
        if (!other.audience.equals(audience) || !other.scope.startsWith(scope.substring(0, colon + 1))) {
            throw new IllegalArgumentException("only scopes of one side at one SE are widened to each other");
        }
        String[] mine = scope.substring(colon + 1).split("/");
        String[] theirs = other.scope.substring(colon + 1).split("/");
        List<String> common = new ArrayList<>();
        for (int i = 0; i < Math.min(mine.length, theirs.length) && mine[i].equals(theirs[i]); i++) {
            if (!mine[i].isEmpty()) {
                common.add(mine[i]);
            }
        }
        return new ExchangeScope(scope.substring(0, colon + 1) + "/" + String.join("/", common), audience);
    }
}
