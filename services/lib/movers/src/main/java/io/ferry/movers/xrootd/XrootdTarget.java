package io.ferry.movers.xrootd;

import io.ferry.movers.MoverException;

import java.net.URI;
import java.util.Locale;

/**
 * A root:// or roots:// URL taken apart: the server and the absolute path sent to it. {@code root://host//abs/path}
 * and {@code root://host/abs/path} name the same file. The path is the URL's decoded path and must not carry what
 * would change its meaning at the server: {@code ..} or {@code .} segments, {@code ?} (XRootD's opaque part, which only
 * Ferry writes), NUL or other control characters; such URLs are refused before any I/O.
 */
record XrootdTarget(String host, int port, boolean tls, String path) {

    static XrootdTarget of(URI url, String phase) throws MoverException {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("root") && !scheme.equals("roots")) {
            throw refused(phase, url, "not a root:// or roots:// URL");
        }
        if (url.getHost() == null || url.getHost().isEmpty()) {
            throw refused(phase, url, "no host");
        }
        if (url.getRawQuery() != null || url.getRawFragment() != null || url.getRawUserInfo() != null) {
            throw refused(phase, url, "a query, fragment or user part is not accepted in an XRootD URL");
        }
        String path = url.getPath();
        if (path == null || !path.startsWith("/")) {
            throw refused(phase, url, "no absolute path");
        }
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '?') {
                throw refused(phase, url, "the path holds a control character or '?'");
            }
        }
        StringBuilder clean = new StringBuilder();
        for (String segment : path.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            if (segment.equals("..") || segment.equals(".")) {
                throw refused(phase, url, "'.' and '..' segments are not accepted");
            }
            clean.append('/').append(segment);
        }
        if (clean.isEmpty()) {
            throw refused(phase, url, "the path names no file");
        }
        int port = url.getPort() < 0 ? XrootdProtocol.DEFAULT_PORT : url.getPort();
        return new XrootdTarget(url.getHost(), port, scheme.equals("roots"), clean.toString());
    }

    /** The path of the directory that holds this file ("/" for a file at the top). */
    String parent() {
        int slash = path.lastIndexOf('/');
        return slash <= 0 ? "/" : path.substring(0, slash);
    }

    /** {@code host:port}, as XRootD names a server (in TPC's {@code tpc.src}, in logs). */
    String authority() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    private static MoverException refused(String phase, URI url, String why) {
        return new MoverException(MoverException.Code.UNSUPPORTED_URL, phase, "refused XRootD URL " + url + ": " + why);
    }
}
