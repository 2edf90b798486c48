package io.ferry.movers;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSocketFactory;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * HTTP/1.1 for the data path: bodies stream straight between the socket and the caller's buffers (direct ones for
 * the bulk copy, see {@link WireConnection}), on the caller's thread, with no intermediate publisher or shared
 * selector thread, which held the JDK client far below {@code curl | curl} on the same machine (docs/benchmarks.md).
 * Idle connections are kept per host. A request without a body that fails on a kept connection before any answer is sent
 * again on a fresh one. An upload cannot be sent twice (its body streams from a source that is read once), so it
 * takes a kept connection only when that one went idle moments ago and the server has not closed it: a new
 * connection per small file cost nginx an accept and both sides a socket and a selector each time.
 */
final class HttpWire {

    static final int BUFFER = 256 << 10;
    private static final int MAX_IDLE_PER_HOST = 32;
    /**
     * How long a connection may have been idle and still carry an upload. Servers drop idle connections after
     * seconds (Apache httpd after 5, nginx after 75), and one dropped while an upload's body starts would fail the
     * copy; under this age the server has had no reason to.
     */
    static final Duration UPLOAD_REUSE_IDLE = Duration.ofSeconds(2);

    private final Duration connectTimeout;
    private final Duration ioTimeout;
    private final StorageTls storageTls;
    private final SSLSocketFactory tls;
    /** Whose identity this wire's TLS connections carry ("" the mover's own): kept connections are never shared across. */
    private final String identity;
    private final Map<String, ConcurrentLinkedDeque<WireConnection>> idle;

    HttpWire(Duration connectTimeout, Duration ioTimeout, SSLSocketFactory tls) {
        this(connectTimeout, ioTimeout, StorageTls.of(tls));
    }

    HttpWire(Duration connectTimeout, Duration ioTimeout, StorageTls tls) {
        this(connectTimeout, ioTimeout, tls, tls.service(), "", new ConcurrentHashMap<>());
    }

    private HttpWire(Duration connectTimeout, Duration ioTimeout, StorageTls storageTls, SSLSocketFactory tls, String identity,
                     Map<String, ConcurrentLinkedDeque<WireConnection>> idle) {
        this.connectTimeout = connectTimeout;
        this.ioTimeout = ioTimeout;
        this.storageTls = storageTls;
        this.tls = tls;
        this.identity = identity;
        this.idle = idle;
    }

    /**
     * This wire as one SE sees a copy's side: presenting {@code credential}'s client certificate in TLS handshakes
     * (its own kept connections), or the mover's own identity when the side has none.
     */
    HttpWire presenting(StorageCredential credential) throws IOException {
        if (!(credential instanceof ClientCertificate certificate)) {
            return this;
        }
        try {
            return new HttpWire(connectTimeout, ioTimeout, storageTls, storageTls.presenting(certificate), "#" + fingerprint(certificate), idle);
        } catch (GeneralSecurityException e) {
            throw new SSLHandshakeException("the copy's client certificate is unusable: " + e.getMessage());
        }
    }

    private static String fingerprint(ClientCertificate certificate) throws GeneralSecurityException {
        byte[] leaf = certificate.chain().get(0).getEncoded();
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(leaf), 0, 16);
    }

    /** Where an upload's body goes: all of {@code src} is written before this returns. */
    interface Sink {
        void write(ByteBuffer src) throws IOException;
    }

    /** An upload's body: writes exactly the announced length into the sink; closed after the exchange, failed or not. */
    interface Body extends AutoCloseable {
        void writeTo(Sink sink) throws IOException;

        @Override
        default void close() {
        }
    }

    /** An answer: status, headers (names lower-case) and the body, to be read to its end or closed. */
    static final class Response implements AutoCloseable {
        final int status;
        final Map<String, List<String>> headers;
        final InputStream body;
        private final WireConnection connection;
        private final HttpWire wire;
        private final boolean reusable;
        private boolean closed;

        Response(int status, Map<String, List<String>> headers, InputStream body, WireConnection connection, HttpWire wire, boolean reusable) {
            this.status = status;
            this.headers = headers;
            this.body = body;
            this.connection = connection;
            this.wire = wire;
            this.reusable = reusable;
        }

        String header(String name) {
            List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
            return v == null || v.isEmpty() ? null : v.get(0);
        }

        List<String> headers(String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of());
        }

        long contentLength() {
            String v = header("content-length");
            try {
                return v == null ? -1 : Long.parseLong(v.trim());
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        /**
         * Body bytes into {@code dst} (a direct buffer takes them from the socket with no heap copy); -1 at the end.
         */
        int read(ByteBuffer dst) throws IOException {
            if (body instanceof FixedLength f) {
                return f.read(dst);
            }
            byte[] chunk = new byte[Math.min(dst.remaining(), BUFFER)];
            int n = body.read(chunk, 0, chunk.length);
            if (n > 0) {
                dst.put(chunk, 0, n);
            }
            return n;
        }

        /**
         * The next body bytes into {@code dst}: at most {@code max} of them, fewer only where its room ends; the buffer
         * is flipped for writing. An answer that ends first is an {@link EOFException}.
         */
        void readFully(ByteBuffer dst, long max) throws IOException {
            dst.clear();
            if (max < dst.capacity()) {
                dst.limit((int) max);
            }
            while (dst.hasRemaining()) {
                if (read(dst) < 0) {
                    throw new EOFException("the body ended " + (dst.remaining()) + " bytes early");
                }
            }
            dst.flip();
        }

        /**
         * Closes the connection under a reader blocked on it, from another thread: the read fails at once (a stopped
         * copy whose answer comes only every few seconds).
         */
        void abort() {
            closed = true;
            connection.close();
        }

        /** Reads what is left of a small body (errors, listings) and frees the connection. */
        void discard() throws IOException {
            body.transferTo(OutputStream.nullOutputStream());
            close();
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            if (reusable && body instanceof Framed f && f.complete() && connection.drained()) {
                wire.release(connection);
            } else {
                connection.close();
            }
        }
    }

    /** A request without a body (HEAD, GET, DELETE, MKCOL). */
    Response send(String method, URI uri, Map<String, String> headers) throws IOException {
        WireConnection kept = take(uri);
        if (kept != null) {
            try {
                return exchange(kept, method, uri, headers, null, 0);
            } catch (IOException e) {
                // the server closed the kept connection in the meantime: once more on a new one
                kept.close();
            }
        }
        return exchangeOnNew(uri, method, headers, null, 0);
    }

    /**
     * A request whose body of {@code length} bytes writes itself (an upload; the mover's relays): on a connection that
     * was idle for less than {@link #UPLOAD_REUSE_IDLE} and is still open, else on a new one.
     */
    Response send(String method, URI uri, Map<String, String> headers, Body body, long length) throws IOException {
        WireConnection kept = take(uri);
        if (kept != null && kept.idleNanos() < UPLOAD_REUSE_IDLE.toNanos() && kept.stillOpen()) {
            try {
                return exchange(kept, method, uri, headers, body, length);
            } catch (IOException | RuntimeException e) {
                kept.close();
                throw e;
            }
        }
        if (kept != null) {
            kept.close();
        }
        return exchangeOnNew(uri, method, headers, body, length);
    }

    /**
     * A request without a body that must not be sent twice (a third-party COPY starts a transfer): always on a new
     * connection, where a failure cannot mean that a kept one had been closed.
     */
    Response sendOnce(String method, URI uri, Map<String, String> headers) throws IOException {
        return exchangeOnNew(uri, method, headers, null, 0);
    }

    private Response exchangeOnNew(URI uri, String method, Map<String, String> headers, Body body, long length) throws IOException {
        WireConnection c = WireConnection.open(uri, key(uri), connectTimeout, ioTimeout, tls);
        try {
            return exchange(c, method, uri, headers, body, length);
        } catch (IOException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private Response exchange(WireConnection c, String method, URI uri, Map<String, String> headers, Body body, long length)
            throws IOException {
        StringBuilder head = new StringBuilder(256);
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        head.append(method).append(' ').append(path).append(uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()).append(" HTTP/1.1\r\n");
        head.append("Host: ").append(uri.getHost()).append(uri.getPort() > 0 ? ":" + uri.getPort() : "").append("\r\n");
        head.append("User-Agent: ferry-transfer-scheduler\r\n");
        for (Map.Entry<String, String> h : headers.entrySet()) {
            head.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        if (body != null) {
            head.append("Content-Length: ").append(length).append("\r\n");
        } else if (method.equals("PUT") || method.equals("POST")) {
            head.append("Content-Length: 0\r\n");
        }
        head.append("\r\n");
        c.write(ByteBuffer.wrap(head.toString().getBytes(StandardCharsets.ISO_8859_1)));
        if (body != null) {
            body.writeTo(c);
        }
        c.flush();
        return readResponse(c, method);
    }

    private Response readResponse(WireConnection c, String method) throws IOException {
        while (true) {
            String status = line(c);
            if (status == null) {
                throw new EOFException("the server closed the connection without answering");
            }
            String[] parts = status.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP/1.x answer: " + status);
            }
            int code = Integer.parseInt(parts[1]);
            Map<String, List<String>> headers = new LinkedHashMap<>();
            for (String h = line(c); h != null && !h.isEmpty(); h = line(c)) {
                int colon = h.indexOf(':');
                if (colon > 0) {
                    headers.computeIfAbsent(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), k -> new ArrayList<>()).add(h.substring(colon + 1).trim());
                }
            }
            if (code >= 100 && code < 200) {
                continue;
            }
            String connection = headers.getOrDefault("connection", List.of("")).get(0);
            boolean keepAlive = !connection.equalsIgnoreCase("close") && parts[0].equals("HTTP/1.1");
            String te = headers.getOrDefault("transfer-encoding", List.of("")).get(0);
            String cl = headers.getOrDefault("content-length", List.of("")).get(0);
            InputStream body;
            if (method.equals("HEAD") || code == 204 || code == 304) {
                body = new FixedLength(c, 0);
            } else if (te.toLowerCase(Locale.ROOT).contains("chunked")) {
                body = new Chunked(c);
            } else if (!cl.isEmpty()) {
                body = new FixedLength(c, Long.parseLong(cl.trim()));
            } else {
                body = new UntilClose(c);
                keepAlive = false;
            }
            return new Response(code, headers, body, c, this, keepAlive);
        }
    }

    private static String line(WireConnection in) throws IOException {
        StringBuilder b = new StringBuilder(64);
        int ch;
        while ((ch = in.read()) >= 0) {
            if (ch == '\n') {
                int len = b.length();
                return len > 0 && b.charAt(len - 1) == '\r' ? b.substring(0, len - 1) : b.toString();
            }
            if (b.length() > 16384) {
                throw new IOException("header line too long");
            }
            b.append((char) ch);
        }
        return b.length() == 0 ? null : b.toString();
    }

    private WireConnection take(URI uri) {
        ConcurrentLinkedDeque<WireConnection> q = idle.get(key(uri));
        return q == null ? null : q.pollFirst();
    }

    private void release(WireConnection c) {
        c.idle();
        ConcurrentLinkedDeque<WireConnection> q = idle.computeIfAbsent(c.key, k -> new ConcurrentLinkedDeque<>());
        if (q.size() < MAX_IDLE_PER_HOST) {
            q.addFirst(c);
        } else {
            c.close();
        }
    }

    private String key(URI uri) {
        return uri.getScheme().toLowerCase(Locale.ROOT) + "://" + uri.getHost() + ":" + uri.getPort() + identity;
    }

    /** A body that knows when it was read to its end (then the connection may be kept). */
    interface Framed {
        boolean complete();
    }

    private static final class FixedLength extends InputStream implements Framed {
        private final WireConnection in;
        private long left;

        FixedLength(WireConnection in, long length) {
            this.in = in;
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            if (left <= 0) {
                return -1;
            }
            int b = in.read();
            if (b < 0) {
                throw new EOFException(left + " bytes of the body missing");
            }
            left--;
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = in.read(b, off, (int) Math.min(len, left));
            if (n < 0) {
                throw new EOFException(left + " bytes of the body missing");
            }
            left -= n;
            return n;
        }

        int read(ByteBuffer dst) throws IOException {
            if (left <= 0) {
                return -1;
            }
            int n = in.read(dst, (int) Math.min(Integer.MAX_VALUE, left));
            if (n < 0) {
                throw new EOFException(left + " bytes of the body missing");
            }
            left -= n;
            return n;
        }

        @Override
        public boolean complete() {
            return left == 0;
        }
    }

    private static final class Chunked extends InputStream implements Framed {
        private final WireConnection in;
        private long chunkLeft;
        private boolean done;

        Chunked(WireConnection in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (done) {
                return -1;
            }
            if (chunkLeft == 0) {
                String size = line(in);
                if (size == null) {
                    throw new EOFException("chunked body ended early");
                }
                int semi = size.indexOf(';');
                chunkLeft = Long.parseLong((semi >= 0 ? size.substring(0, semi) : size).trim(), 16);
                if (chunkLeft == 0) {
                    for (String t = line(in); t != null && !t.isEmpty(); t = line(in)) {
                        // trailers are ignored
                    }
                    done = true;
                    return -1;
                }
            }
            int n = in.read(b, off, (int) Math.min(len, chunkLeft));
            if (n < 0) {
                throw new EOFException("chunked body ended early");
            }
            chunkLeft -= n;
            if (chunkLeft == 0) {
                line(in);
            }
            return n;
        }

        @Override
        public boolean complete() {
            return done;
        }
    }

    /** A body without a length: everything until the server closes the connection. */
    private static final class UntilClose extends InputStream {
        private final WireConnection in;

        UntilClose(WireConnection in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            return in.read(b, off, len);
        }
    }
}
