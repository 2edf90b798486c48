package io.ferry.movers;

import java.net.URI;
import java.util.Locale;

/**
 * WebDAV's scheme names as grid tools write them: {@code davs://} is WebDAV over TLS (https), {@code dav://} over
 * plain HTTP. Rucio's WebDAV storage elements use davs; on the wire they are https and http.
 */
public final class WebDavSchemes {

    private WebDavSchemes() {
    }

    /** The HTTP scheme a URL is spoken with: "https" for https and davs, "http" for http and dav, else null. */
    public static String transport(URI url) {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        return switch (scheme) {
            case "https", "davs" -> "https";
            case "http", "dav" -> "http";
            default -> null;
        };
    }

    /** The same URL under its HTTP scheme ({@code davs://h/p} → {@code https://h/p}); others unchanged, null stays null. */
    public static URI asHttp(URI url) {
        if (url == null) {
            return null;
        }
        String transport = transport(url);
        if (transport == null || transport.equalsIgnoreCase(url.getScheme())) {
            return url;
        }
        // the rest of the URL as it is, escapes included (URI's multi-part constructors would quote '%' again)
        return URI.create(transport + url.toString().substring(url.getScheme().length()));
    }

    /** The copy with every URL under its HTTP scheme. */
    public static CopyRequest asHttp(CopyRequest r) {
        return new CopyRequest(asHttp(r.source()), asHttp(r.destination()), r.expectedSize(), r.expectedChecksum(), r.verify(),
                r.overwrite(), r.streams(), asHttp(r.destinationBase()), r.thirdPartyCopy(), asHttp(r.sourceBase()), r.credentials(),
                r.algorithm(), r.scitag(), r.archiveMetadata(), r.rateLimit());
    }
}
