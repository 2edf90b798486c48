package io.ferry.movers.xrootd;

import io.ferry.movers.BearerToken;
import io.ferry.movers.ClientCertificate;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageTls;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.ferry.movers.xrootd.XrootdProtocol.*;

/**
 * One logged-in XRootD session over TCP (TLS when the URL is roots://, when the server asks for it, or when a token
 * is sent: XRootD's {@code ztn} works only over TLS): handshake, kXR_protocol, kXR_login, kXR_auth, then requests.
 * A connection is used by one file at a time; requests may be pipelined ({@link #send} several, then
 * {@link #nextHeader} their answers), each with its own stream id.
 */
final class XrootdConnection implements Closeable {

    /** A response header; after an asynchronous answer (kXR_attn kXR_asynresp) the header it carries. */
    record Header(int streamId, int status, int length) {
    }

    private static final int HEADER = 24;

    final XrootdEndpoint endpoint;
    private final Duration timeout;
    private Socket socket;
    private DataInputStream in;
    private OutputStream out;
    private int serverFlags;
    private int nextStreamId = 1;
    private boolean broken;
    /** How many requests this session answered: 0 until it has been used once (a stale pooled one fails its first). */
    long requests;
    long idleSinceNanos = System.nanoTime();

    private XrootdConnection(XrootdEndpoint endpoint, Duration timeout) {
        this.endpoint = endpoint;
        this.timeout = timeout;
    }

    /** Connects, upgrades to TLS where needed, logs in and authenticates with the endpoint's credential. */
    static XrootdConnection open(XrootdEndpoint endpoint, Duration timeout, StorageTls tls, String phase)
            throws IOException, XrootdError, MoverException {
        XrootdConnection c = new XrootdConnection(endpoint, timeout);
        try {
            c.connect(tls, phase);
            c.requests = 0;  // login and auth do not count: a session that never served a file is not "reused"
            return c;
        } catch (IOException | XrootdError | MoverException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private void connect(StorageTls tls, String phase) throws IOException, XrootdError, MoverException {
        Socket plain = new Socket();
        plain.setTcpNoDelay(true);
        plain.setSoTimeout((int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        plain.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), (int) Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        use(plain);
        boolean wantTls = endpoint.tls() || endpoint.credential() instanceof BearerToken;
        handshake(wantTls);
        if (wantTls) {
            if ((serverFlags & HAVE_TLS) == 0) {
                throw new MoverException(MoverException.Code.TLS_FAILED, phase, endpoint + " has no TLS configured ("
                        + (endpoint.tls() ? "roots://" : "a token is sent only over TLS") + ")");
            }
            upgrade(tls, phase);
        } else if ((serverFlags & (GOTO_TLS | TLS_LOGIN)) != 0) {
            upgrade(tls, phase);
        }
        String security = login();
        if (!isTls() && (serverFlags & TLS_SESSION) != 0) {
            upgrade(tls, phase);
        }
        XrootdSecurity.authenticate(this, security, tls, phase);
    }

    private void use(Socket s) throws IOException {
        socket = s;
        in = new DataInputStream(new BufferedInputStream(s.getInputStream(), 64 << 10));
        out = new BufferedOutputStream(s.getOutputStream(), 64 << 10);
    }

    boolean isTls() {
        return socket instanceof SSLSocket;
    }

    /** The initial handshake and kXR_protocol in one packet, as XrdCl sends them. */
    private void handshake(boolean wantTls) throws IOException, XrootdError {
        ByteBuffer b = ByteBuffer.allocate(20 + HEADER);
        b.putInt(0).putInt(0).putInt(0).putInt(4).putInt(2012);
        b.put((byte) 0).put((byte) 0).putShort((short) PROTOCOL).putInt(CLIENT_PROTOCOL_VERSION);
        b.put((byte) (SEC_REQS | ABLE_TLS | (wantTls ? WANT_TLS : 0))).put((byte) EXPECT_LOGIN);
        b.put(new byte[10]).putInt(0);
        out.write(b.array());
        out.flush();
        Header hs = readHeader();
        byte[] hello = readBody(hs.length());
        if (hs.status() != OK || hello.length < 8) {
            throw new IOException(endpoint + " did not answer the XRootD handshake");
        }
        Header h = readHeader();
        byte[] body = readBody(h.length());
        if (h.status() == ERROR) {
            throw error(body);
        }
        if (body.length < 8) {
            throw new IOException(endpoint + " answered kXR_protocol with " + body.length + " bytes");
        }
        serverFlags = ByteBuffer.wrap(body).getInt(4);
    }

    private void upgrade(StorageTls tls, String phase) throws IOException, MoverException {
        SSLSocketFactory factory;
        try {
            factory = endpoint.credential() instanceof ClientCertificate cert ? tls.presenting(cert) : tls.service();
        } catch (GeneralSecurityException e) {
            throw new MoverException(MoverException.Code.TLS_FAILED, phase, "client certificate for " + endpoint + ": " + e.getMessage());
        }
        // whatever the server sent before the switch has been read: the buffered stream is empty here
        SSLSocket ssl = (SSLSocket) factory.createSocket(socket, endpoint.host(), endpoint.port(), true);
        SSLParameters p = ssl.getSSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        ssl.setSSLParameters(p);
        ssl.setUseClientMode(true);
        try {
            ssl.startHandshake();
        } catch (IOException e) {
            throw new MoverException(MoverException.Code.TLS_FAILED, phase, "TLS with " + endpoint + ": " + e.getMessage());
        }
        use(ssl);
    }

    /** kXR_login; answers the security protocols the server wants ("" when none). */
    private String login() throws IOException, XrootdError {
        ByteBuffer body = ByteBuffer.allocate(16);
        body.putInt((int) ProcessHandle.current().pid());
        byte[] user = "ferry".getBytes(StandardCharsets.US_ASCII);
        body.put(user).put(new byte[8 - user.length]);
        body.put((byte) 0).put((byte) 0).put((byte) CAPVER_5_ASYNC).put((byte) 0);
        XrootdResponse r = call(LOGIN, body.array(), new byte[0]);
        byte[] b = r.body();
        if (b.length <= 16) {
            return "";
        }
        int end = 16;
        while (end < b.length && b[end] != 0) {
            end++;
        }
        return new String(b, 16, end - 16, StandardCharsets.UTF_8);
    }

    /** kXR_wait answers one request may get before Ferry gives up (a server that never stops asking to wait). */
    static final int MAX_WAITS = 32;

    /** Sends one request and waits for its final answer (kXR_wait honoured by asking again, a bounded number of times). */
    XrootdResponse call(int requestId, byte[] body16, byte[] data) throws IOException, XrootdError {
        long deadline = System.nanoTime() + 10 * timeout.toNanos();
        for (int waits = 0; ; waits++) {
            int id = send(requestId, body16, data, 0, data.length, true);
            XrootdResponse r = await(id);
            if (r.status() != WAIT) {
                return r;
            }
            int seconds = Math.max(0, ByteBuffer.wrap(r.body()).getInt());
            long left = deadline - System.nanoTime();
            if (waits >= MAX_WAITS || left <= seconds * 1_000_000_000L) {
                throw new java.net.SocketTimeoutException(endpoint + " kept asking to wait (" + (waits + 1) + " times): " + error(r.body()).getMessage());
            }
            try {
                Thread.sleep(seconds * 1000L);  // the server asked for this pause before the request is repeated
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new java.io.InterruptedIOException("interrupted while the server asked to wait");
            }
        }
    }

    /** {@link #call}, each answer allowed to take up to {@code patience} (a third-party copy's kXR_sync). */
    XrootdResponse callWithin(Duration patience, int requestId, byte[] body16, byte[] data) throws IOException, XrootdError {
        int before = socket.getSoTimeout();
        socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(patience.toMillis(), before)));
        try {
            return call(requestId, body16, data);
        } finally {
            if (!socket.isClosed()) {
                socket.setSoTimeout(before);
            }
        }
    }

    /** Writes a request; returns its stream id. */
    int send(int requestId, byte[] body16, byte[] data, int off, int len, boolean flush) throws IOException {
        int id = nextStreamId;
        nextStreamId = nextStreamId == 0xffff ? 1 : nextStreamId + 1;
        byte[] h = new byte[HEADER];
        h[0] = (byte) (id >>> 8);
        h[1] = (byte) id;
        h[2] = (byte) (requestId >>> 8);
        h[3] = (byte) requestId;
        System.arraycopy(body16, 0, h, 4, 16);
        h[20] = (byte) (len >>> 24);
        h[21] = (byte) (len >>> 16);
        h[22] = (byte) (len >>> 8);
        h[23] = (byte) len;
        try {
            out.write(h);
            if (len > 0) {
                out.write(data, off, len);
            }
            if (flush) {
                out.flush();
            }
        } catch (IOException e) {
            broken = true;
            throw e;
        }
        return id;
    }

    void flush() throws IOException {
        out.flush();
    }

    /** Collects the answer to {@code streamId}: kXR_oksofar parts joined, kXR_waitresp followed to its kXR_attn. */
    XrootdResponse await(int streamId) throws IOException, XrootdError {
        ByteArrayOutputStream parts = null;
        while (true) {
            Header h = nextHeader();
            if (h.streamId() != streamId) {
                broken = true;
                throw new IOException(endpoint + " answered stream " + h.streamId() + " while " + streamId + " was expected");
            }
            byte[] body = readBody(h.length());
            switch (h.status()) {
                case OK -> {
                    requests++;
                    if (parts == null) {
                        return new XrootdResponse(OK, body);
                    }
                    parts.write(body);
                    return new XrootdResponse(OK, parts.toByteArray());
                }
                case OK_SO_FAR -> {
                    if (parts == null) {
                        parts = new ByteArrayOutputStream();
                    }
                    parts.write(body);
                }
                case ERROR -> {
                    requests++;
                    throw error(body);
                }
                case WAIT_RESP -> {
                    // the real answer comes later as kXR_attn/kXR_asynresp on the same stream id
                }
                case REDIRECT, WAIT, AUTH_MORE -> {
                    requests++;
                    return new XrootdResponse(h.status(), body);
                }
                default -> {
                    broken = true;
                    throw new IOException(endpoint + " answered with unknown status " + h.status());
                }
            }
        }
    }

    /** The next response header, unwrapping asynchronous answers and skipping other kXR_attn messages. */
    Header nextHeader() throws IOException {
        while (true) {
            Header h = readHeader();
            if (h.status() != ATTN) {
                return h;
            }
            int action = readInt();
            if (action == ASYNC_RESPONSE && h.length() >= 16) {
                readInt();  // reserved
                return readHeader();
            }
            skip(h.length() - 4);
        }
    }

    private Header readHeader() throws IOException {
        try {
            int sid = in.readUnsignedShort();
            int status = in.readUnsignedShort();
            int len = in.readInt();
            if (len < 0) {
                throw new IOException(endpoint + " sent a negative length");
            }
            return new Header(sid, status, len);
        } catch (IOException e) {
            broken = true;
            throw e;
        }
    }

    private int readInt() throws IOException {
        try {
            return in.readInt();
        } catch (IOException e) {
            broken = true;
            throw e;
        }
    }

    byte[] readBody(int length) throws IOException {
        byte[] b = new byte[length];
        readFully(b, 0, length);
        return b;
    }

    void readFully(byte[] b, int off, int len) throws IOException {
        try {
            in.readFully(b, off, len);
        } catch (IOException e) {
            broken = true;
            throw e;
        }
    }

    void skip(int len) throws IOException {
        readFully(new byte[len], 0, len);
    }

    static XrootdError error(byte[] body) {
        if (body.length < 4) {
            return new XrootdError(SERVER_ERROR, "malformed kXR_error");
        }
        int code = ByteBuffer.wrap(body).getInt();
        int end = 4;
        while (end < body.length && body[end] != 0) {
            end++;
        }
        return new XrootdError(code, new String(body, 4, end - 4, StandardCharsets.UTF_8));
    }

    /** Marks the session unusable (an answer is missing or the stream is out of step); it will not be pooled. */
    void markBroken() {
        broken = true;
    }

    boolean broken() {
        return broken || socket == null || socket.isClosed();
    }

    /** The security protocols of a login answer ("&P=unix&P=ztn,..."), by name with their parameters. */
    static List<String[]> protocols(String security) {
        List<String[]> out = new ArrayList<>();
        for (String part : security.split("&P=")) {
            if (!part.isBlank()) {
                int comma = part.indexOf(',');
                out.add(comma < 0 ? new String[] {part.trim(), ""} : new String[] {part.substring(0, comma).trim(), part.substring(comma + 1)});
            }
        }
        return out;
    }

    @Override
    public void close() {
        broken = true;
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // nothing more to release
            }
        }
    }
}
