package io.ferry.movers.xrootd;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A minimal XRootD redirector (as a cmsd manager would be): after the handshake and login, every path request is
 * first answered kXR_wait 0 ("ask again"), then kXR_waitresp with the kXR_redirect to the data server coming
 * later in a kXR_attn, carrying an opaque part the data server must get.
 */
final class FakeRedirector implements AutoCloseable {

    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    private final String opaque;
    private final boolean waitForever;
    /** "request-id path" of every path request, in order. */
    final List<String> requests = new CopyOnWriteArrayList<>();

    FakeRedirector(String targetHost, int targetPort, String opaque) throws IOException {
        this(targetHost, targetPort, opaque, false);
    }

    /**
     * With {@code targetPort} 0 it redirects to itself (a redirect loop); with {@code waitForever} it answers every
     * request with kXR_wait 0.
     */
    FakeRedirector(String targetHost, int targetPort, String opaque, boolean waitForever) throws IOException {
        this.waitForever = waitForever;
        this.targetHost = targetHost;
        this.opaque = opaque;
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetPort = targetPort == 0 ? listener.getLocalPort() : targetPort;
        Thread t = new Thread(this::acceptLoop, "fake-redirector");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                Thread t = new Thread(() -> serve(s), "fake-redirector-session");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s; DataInputStream in = new DataInputStream(s.getInputStream()); DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(s.getOutputStream()))) {
            in.readFully(new byte[20]);
            byte[] protocol = request(in);
            answer(out, 0, XrootdProtocol.OK, ByteBuffer.allocate(8).putInt(0x520).putInt(1).array());
            answer(out, streamId(protocol), XrootdProtocol.OK, ByteBuffer.allocate(8).putInt(0x520).putInt(1).array());
            boolean waited = false;
            while (true) {
                byte[] r = request(in);
                int id = streamId(r);
                int requestId = ByteBuffer.wrap(r).getShort(2) & 0xffff;
                if (requestId == XrootdProtocol.LOGIN) {
                    answer(out, id, XrootdProtocol.OK, new byte[16]);
                    continue;
                }
                requests.add(requestId + " " + new String(r, 24, r.length - 24, StandardCharsets.UTF_8));
                if (!waited || waitForever) {
                    waited = true;
                    answer(out, id, XrootdProtocol.WAIT, ByteBuffer.allocate(8).putInt(0).put("busy".getBytes(StandardCharsets.US_ASCII)).array());
                    continue;
                }
                waited = false;
                answer(out, id, XrootdProtocol.WAIT_RESP, ByteBuffer.allocate(4).putInt(0).array());
                byte[] where = (targetHost + "?" + opaque).getBytes(StandardCharsets.US_ASCII);
                ByteBuffer attn = ByteBuffer.allocate(4 + 4 + 8 + 4 + where.length);
                attn.putInt(XrootdProtocol.ASYNC_RESPONSE).putInt(0);
                attn.put((byte) (id >>> 8)).put((byte) id).putShort((short) XrootdProtocol.REDIRECT).putInt(4 + where.length);
                attn.putInt(targetPort).put(where);
                answer(out, 0, XrootdProtocol.ATTN, attn.array());
            }
        } catch (IOException e) {
            // the client went away
        }
    }

    private static byte[] request(DataInputStream in) throws IOException {
        byte[] header = new byte[24];
        in.readFully(header);
        int dlen = ByteBuffer.wrap(header).getInt(20);
        byte[] all = new byte[24 + dlen];
        System.arraycopy(header, 0, all, 0, 24);
        in.readFully(all, 24, dlen);
        return all;
    }

    private static int streamId(byte[] request) {
        return ((request[0] & 0xff) << 8) | (request[1] & 0xff);
    }

    private static void answer(DataOutputStream out, int streamId, int status, byte[] body) throws IOException {
        out.writeShort(streamId);
        out.writeShort(status);
        out.writeInt(body.length);
        out.write(body);
        out.flush();
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
