package io.ferry.movers.xrootd;

import io.ferry.movers.MoverException;
import io.ferry.movers.StorageCredential;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Requests that name a path (stat, open, mkdir, rm, query), sent on a pooled session: kXR_redirect answers are
 * followed to the server they name (at most {@value #MAX_REDIRECTS} times, the server's opaque part carried along),
 * and a reused session that turns out to have been dropped is replaced by a fresh one once.
 */
final class XrootdRequests {

    static final int MAX_REDIRECTS = 8;

    /** A final kXR_ok and the session that got it, still taken: the caller gives it back ({@link XrootdPool#give}). */
    record Answer(XrootdConnection connection, XrootdResponse response) {
    }

    private final XrootdPool pool;

    XrootdRequests(XrootdPool pool) {
        this.pool = pool;
    }

    /**
     * Sends {@code requestId} with {@code body16} and the path (with Ferry's {@code opaque} part when not null).
     * {@code what} names the request in error messages.
     */
    Answer send(XrootdTarget target, StorageCredential credential, int requestId, byte[] body16, String opaque,
                String what, URI url, XrootdErrors.Role role, String phase) throws MoverException {
        XrootdEndpoint endpoint = XrootdEndpoint.of(target, credential);
        String serverOpaque = null;
        for (int hop = 0; hop <= MAX_REDIRECTS; hop++) {
            byte[] data = pathData(target.path(), serverOpaque, opaque);
            XrootdConnection c = null;
            try {
                c = pool.take(endpoint, phase);
                XrootdResponse r;
                try {
                    r = c.call(requestId, body16, data);
                } catch (IOException e) {
                    if (c.requests == 0 || !XrootdErrors.isDisconnect(e)) {
                        throw e;
                    }
                    c.close();
                    c = pool.fresh(endpoint, phase);
                    r = c.call(requestId, body16, data);
                }
                if (r.status() == XrootdProtocol.REDIRECT) {
                    pool.give(c);
                    c = null;
                    ByteBuffer b = ByteBuffer.wrap(r.body());
                    int port = b.getInt();
                    String where = r.body().length > 4 ? new String(r.body(), 4, r.body().length - 4, StandardCharsets.UTF_8).replace("\0", "") : "";
                    int q = where.indexOf('?');
                    String host = q < 0 ? where : where.substring(0, q);
                    if (host.startsWith("[") && host.endsWith("]")) {
                        host = host.substring(1, host.length() - 1);  // an IPv6 address as XRootD writes it
                    }
                    if (port <= 0 || host.isEmpty()) {
                        throw new MoverException(MoverException.Code.HTTP_ERROR, phase, what + " " + url + ": unusable redirect to '" + where + "'");
                    }
                    endpoint = endpoint.redirected(host, port);
                    serverOpaque = q < 0 ? null : where.substring(q + 1);
                    continue;
                }
                if (r.status() != XrootdProtocol.OK) {
                    c.markBroken();
                    throw new MoverException(MoverException.Code.HTTP_ERROR, phase, what + " " + url + ": unexpected answer status " + r.status());
                }
                return new Answer(c, r);
            } catch (XrootdError e) {
                if (c != null) {
                    pool.give(c);
                }
                throw XrootdErrors.of(e, what, url, role, phase);
            } catch (IOException e) {
                if (c != null) {
                    c.close();
                }
                throw XrootdErrors.of(e, what, url, phase);
            } catch (MoverException | RuntimeException e) {
                if (c != null) {
                    c.close();
                }
                throw e;
            }
        }
        throw new MoverException(MoverException.Code.HTTP_ERROR, phase, what + " " + url + ": more than " + MAX_REDIRECTS + " redirects");
    }

    /** Like {@link #send}, the session given back at once. */
    XrootdResponse ask(XrootdTarget target, StorageCredential credential, int requestId, byte[] body16, String opaque,
                       String what, URI url, XrootdErrors.Role role, String phase) throws MoverException {
        Answer a = send(target, credential, requestId, body16, opaque, what, url, role, phase);
        pool.give(a.connection());
        return a.response();
    }

    private static byte[] pathData(String path, String serverOpaque, String ours) {
        StringBuilder s = new StringBuilder(path);
        String sep = "?";
        for (String part : new String[] {serverOpaque, ours}) {
            if (part != null && !part.isEmpty()) {
                s.append(sep).append(part);
                sep = "&";
            }
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    XrootdPool pool() {
        return pool;
    }
}
