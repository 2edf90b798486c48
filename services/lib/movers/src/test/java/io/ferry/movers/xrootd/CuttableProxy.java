package io.ferry.movers.xrootd;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay to a server whose connections the test can drop at once ({@link #cutAll()}), as a server, a firewall or
 * a NAT drops idle connections a client still keeps in its pool.
 */
final class CuttableProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile int accepted;

    CuttableProxy(int targetPort) throws IOException {
        listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!listener.isClosed()) {
                try {
                    Socket client = listener.accept();
                    Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                    accepted++;
                    open.add(client);
                    open.add(server);
                    pump(client, server);
                    pump(server, client);
                } catch (IOException e) {
                    return;
                }
            }
        }, "proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private static void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] b = new byte[64 << 10];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(b)) >= 0) {
                    out.write(b, 0, n);
                }
            } catch (IOException e) {
                // one side closed: the other follows
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException ignored) {
                    // closed already
                }
            }
        }, "proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** Connections accepted so far. */
    int accepted() {
        return accepted;
    }

    /** Drops every connection relayed so far, both sides. */
    void cutAll() throws IOException {
        for (Socket s : open) {
            s.close();
        }
        open.clear();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        cutAll();
    }
}
