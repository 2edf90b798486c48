package io.ferry.resolver.model;

import io.ferry.storageurl.InvalidStorageUrl;
import io.ferry.storageurl.StorageUrl;

import java.util.Optional;

/**
 * A replica's path below its SE's base URL, in the canonical storage form ({@link StorageUrl}): percent-decoded
 * once, refused when a server could read it as leaving the base ({@code ..} or {@code .} in any spelling such as
 * {@code %2E%2e}, {@code ..%2f}, {@code %2e.}), or with an encoded separator, {@code ;}, NUL or a query. What is
 * stored is the canonical encoding of the path, and a transport URL is only ever the SE's base URL joined with it
 * and checked again to lie below that base.
 */
public final class ReplicaPath {

    /** Only the path of a joined URL is looked at; the host is a placeholder. */
    private static final StorageUrl ROOT = StorageUrl.parse("http://replica.invalid/");

    private ReplicaPath() {
    }

    /** The canonical form of a replica path as given (percent-encoded, relative to the SE's base), or why it has none. */
    public static String canonical(String raw) {
        String relative = withoutLeadingSlashes(raw);
        if (relative.isEmpty()) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "an empty path");
        }
        StorageUrl u = StorageUrl.parse(ROOT + relative);
        if (!u.isWithin(ROOT)) {
            throw new InvalidStorageUrl(InvalidStorageUrl.Reason.MALFORMED, "not a path below the SE's base URL");
        }
        return u.encodedPath().substring(1);
    }

    /** The transport URL of {@code storedPath} under {@code baseUrl}, or empty when it would not lie below that base. */
    public static Optional<String> turl(String baseUrl, String storedPath) {
        if (baseUrl == null || storedPath == null) {
            return Optional.empty();
        }
        try {
            StorageUrl base = StorageUrl.parse(baseUrl);
            String prefix = base.toString().endsWith("/") ? base.toString() : base + "/";
            StorageUrl turl = StorageUrl.parse(prefix + withoutLeadingSlashes(storedPath));
            return turl.isWithin(base) ? Optional.of(turl.toString()) : Optional.empty();
        } catch (InvalidStorageUrl e) {
            return Optional.empty();
        }
    }

    private static String withoutLeadingSlashes(String path) {
        int i = 0;
        while (i < path.length() && path.charAt(i) == '/') {
            i++;
        }
        return path.substring(i);
    }
}
