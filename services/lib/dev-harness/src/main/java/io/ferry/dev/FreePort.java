package io.ferry.dev;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Finds loopback ports for servers that the harness starts. */
public final class FreePort {

    private FreePort() {
    }

    /** Ports this JVM handed out: servers start later, so the kernel may offer a port again before anyone binds it. */
    private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

    /** A free loopback port not handed out before in this JVM (two servers of one test never get the same port). */
    public static int find() {
        while (true) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                s.setReuseAddress(true);
                if (HANDED_OUT.add(s.getLocalPort())) {
                    return s.getLocalPort();
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** Why a server did not come up: its own words, read only when needed. */
    public interface Diagnosis {
        String explain() throws IOException;
    }

    /**
     * Waits until {@code server} listens on the loopback {@code port}; fails with {@code why} if it exits first or
     * does not listen within {@code timeoutMillis}.
     */
    public static void awaitListening(Process server, int port, long timeoutMillis, Diagnosis why) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (System.currentTimeMillis() < deadline) {
            try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return;
            } catch (IOException e) {
                if (!server.isAlive()) {
                    throw new IllegalStateException(why.explain());
                }
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("nothing listens on " + port + " after " + timeoutMillis + " ms: " + why.explain());
    }

    public static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
