package io.ferry.movers;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;

/**
 * One HTTP connection with a small read buffer for status lines and headers. Plain connections are non-blocking
 * socket channels: bodies move between the socket and the caller's direct buffers with no copy through the Java
 * heap (a socket's streams copy every byte once more each way), and a read or write that would block waits in the
 * connection's own selector for at most the I/O timeout. TLS connections go through an SSL socket's streams.
 */
final class WireConnection implements HttpWire.Sink {

    /** Room for a status line and headers; bodies larger than what arrived with them are read past it. */
    private static final int HEAD_BUFFER = 16 << 10;

    final String key;
    /**
     * Bytes read but not yet consumed, between position and limit. A heap buffer: many uploads still open a
     * connection, and a direct one would cost a native allocation and a cleaner each; bodies bypass it once drained.
     */
    private final ByteBuffer in = ByteBuffer.allocate(HEAD_BUFFER).flip();
    private final int timeoutMillis;
    private final SocketChannel channel;
    /** Volatile: a copy stopped from another thread closes it to wake a read waiting in it. */
    private volatile Selector selector;
    private final Socket tls;
    /** The TCP socket under {@link #tls}: closing it fails a blocked TLS read at once. */
    private final Socket tlsTransport;
    private final InputStream tlsIn;
    private final OutputStream tlsOut;
    private byte[] stage;
    /** When the connection was last put back idle ({@link System#nanoTime()}). */
    private long idleSince = System.nanoTime();

    private WireConnection(String key, int timeoutMillis, SocketChannel channel, Socket tls, Socket tlsTransport) throws IOException {
        this.key = key;
        this.timeoutMillis = timeoutMillis;
        this.channel = channel;
        this.tls = tls;
        this.tlsTransport = tlsTransport;
        this.tlsIn = tls == null ? null : tls.getInputStream();
        this.tlsOut = tls == null ? null : tls.getOutputStream();
    }

    static WireConnection open(URI uri, String key, Duration connectTimeout, Duration ioTimeout, SSLSocketFactory tlsSockets) throws IOException {
        boolean secure = "https".equalsIgnoreCase(uri.getScheme());
        int port = uri.getPort() > 0 ? uri.getPort() : secure ? 443 : 80;
        InetSocketAddress address = new InetSocketAddress(uri.getHost(), port);
        if (!secure) {
            SocketChannel ch = SocketChannel.open();
            try {
                ch.socket().setTcpNoDelay(true);
                ch.socket().connect(address, (int) connectTimeout.toMillis());
                ch.configureBlocking(false);
                return new WireConnection(key, (int) ioTimeout.toMillis(), ch, null, null);
            } catch (IOException e) {
                ch.close();
                throw e;
            }
        }
        Socket s = new Socket();
        try {
            s.setTcpNoDelay(true);
            s.connect(address, (int) connectTimeout.toMillis());
            s.setSoTimeout((int) ioTimeout.toMillis());
            SSLSocket ssl = (SSLSocket) tlsSockets.createSocket(s, uri.getHost(), port, true);
            SSLParameters p = ssl.getSSLParameters();
            p.setEndpointIdentificationAlgorithm("HTTPS");
            if (!uri.getHost().matches("[0-9.]+|\\[?[0-9a-fA-F:.]+]?")) {
                p.setServerNames(List.of(new SNIHostName(uri.getHost())));  // SNI names hosts, never addresses
            }
            ssl.setSSLParameters(p);
            ssl.startHandshake();
            return new WireConnection(key, (int) ioTimeout.toMillis(), null, ssl, s);
        } catch (IOException e) {
            s.close();
            throw e;
        }
    }

    /** The next byte, or -1 at the end of the stream. */
    int read() throws IOException {
        if (!in.hasRemaining() && !fill()) {
            return -1;
        }
        return in.get() & 0xff;
    }

    /** Up to {@code len} bytes into {@code b}; -1 at the end of the stream. */
    int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!in.hasRemaining()) {
            if (len >= in.capacity()) {
                return readSocket(ByteBuffer.wrap(b, off, len));
            }
            if (!fill()) {
                return -1;
            }
        }
        int n = Math.min(len, in.remaining());
        in.get(b, off, n);
        return n;
    }

    /** Up to {@code max} bytes into {@code dst}: what is buffered first, then straight from the socket. */
    int read(ByteBuffer dst, int max) throws IOException {
        int n = Math.min(max, dst.remaining());
        if (n == 0) {
            return 0;
        }
        if (in.hasRemaining()) {
            n = Math.min(n, in.remaining());
            ByteBuffer part = in.slice(in.position(), n);
            dst.put(part);
            in.position(in.position() + n);
            return n;
        }
        int limit = dst.limit();
        dst.limit(dst.position() + n);
        try {
            return readSocket(dst);
        } finally {
            dst.limit(limit);
        }
    }

    private boolean fill() throws IOException {
        in.clear();
        int n;
        try {
            n = readSocket(in);
        } finally {
            in.flip();
        }
        return n > 0;
    }

    /** At least one byte from the socket into {@code dst} (which has room), or -1 at its end. */
    private int readSocket(ByteBuffer dst) throws IOException {
        if (channel == null) {
            int want = dst.remaining();
            if (dst.hasArray()) {
                int n = tlsIn.read(dst.array(), dst.arrayOffset() + dst.position(), want);
                if (n > 0) {
                    dst.position(dst.position() + n);
                }
                return n;
            }
            byte[] s = stage();
            int n = tlsIn.read(s, 0, Math.min(want, s.length));
            if (n > 0) {
                dst.put(s, 0, n);
            }
            return n;
        }
        while (true) {
            int n = channel.read(dst);
            if (n != 0) {
                return n;
            }
            await(SelectionKey.OP_READ);
        }
    }

    @Override
    public void write(ByteBuffer src) throws IOException {
        if (channel == null) {
            if (src.hasArray()) {
                tlsOut.write(src.array(), src.arrayOffset() + src.position(), src.remaining());
                src.position(src.limit());
            } else {
                byte[] s = stage();
                while (src.hasRemaining()) {
                    int n = Math.min(s.length, src.remaining());
                    src.get(s, 0, n);
                    tlsOut.write(s, 0, n);
                }
            }
            return;
        }
        while (src.hasRemaining()) {
            if (channel.write(src) == 0) {
                await(SelectionKey.OP_WRITE);
            }
        }
    }

    void flush() throws IOException {
        if (tlsOut != null) {
            tlsOut.flush();
        }
    }

    /** A heap buffer for moving a direct buffer's bytes through TLS streams. */
    private byte[] stage() {
        if (stage == null) {
            stage = new byte[HttpWire.BUFFER];
        }
        return stage;
    }

    /** Waits until the channel is ready for {@code op}; a silence longer than the I/O timeout fails the exchange. */
    private void await(int op) throws IOException {
        if (selector == null) {
            selector = Selector.open();
            channel.register(selector, op);
        }
        SelectionKey k = channel.keyFor(selector);
        if (k.interestOps() != op) {
            k.interestOps(op);
        }
        if (selector.select(timeoutMillis) == 0) {
            throw new SocketTimeoutException("no progress for " + timeoutMillis + " ms");
        }
        selector.selectedKeys().clear();
    }

    /** Marks the connection idle from now on (it is being kept). */
    void idle() {
        idleSince = System.nanoTime();
    }

    long idleNanos() {
        return System.nanoTime() - idleSince;
    }

    /**
     * Whether an idle connection is still usable: the server has neither closed it nor sent anything. A plain
     * connection tells with a read that would block; a TLS one with a read that waits a millisecond.
     */
    boolean stillOpen() {
        if (in.hasRemaining()) {
            return false;
        }
        try {
            if (channel != null) {
                in.clear();
                int n = channel.read(in);
                in.flip();
                return n == 0;
            }
            tls.setSoTimeout(1);
            try {
                tlsIn.read();
                return false;  // the end of the stream, or a byte nobody asked for: not reusable either way
            } catch (SocketTimeoutException quiet) {
                return true;
            } finally {
                tls.setSoTimeout(timeoutMillis);
            }
        } catch (IOException e) {
            return false;
        }
    }

    /** Whether nothing read from the socket is left unconsumed (a kept connection must start clean). */
    boolean drained() {
        return !in.hasRemaining();
    }

    void close() {
        try {
            if (selector != null) {
                selector.close();
            }
            if (channel != null) {
                channel.close();
            } else {
                tlsTransport.close();
                tls.close();
            }
        } catch (IOException ignored) {
            // closing: nothing to save
        }
    }
}
