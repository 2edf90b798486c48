package io.ferry.movers;

import io.ferry.dev.NginxWebDav;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Copies between two nginx SEs that each want their own bearer token: every request to a side carries that side's
 * token (HEAD, GET and its Range requests, MKCOL, PUT, DELETE, the read-back), and nothing else gets through.
 */
class BearerTokenMoverTest {

    static final String SOURCE_TOKEN = "eyJhbGciOiJFUzI1NiJ9.c291cmNl.c2ln";
    static final String DEST_TOKEN = "eyJhbGciOiJFUzI1NiJ9.ZGVzdA.c2ln";
    static NginxWebDav nginx;
    static final HttpMover MOVER = new HttpMover(Duration.ofSeconds(60), 128L << 20);

    @BeforeAll
    static void start() throws Exception {
        nginx = new NginxWebDav(null, Map.of("tok-a", Set.of(SOURCE_TOKEN), "tok-b", Set.of(DEST_TOKEN)));
    }

    @AfterAll
    static void stop() throws Exception {
        nginx.close();
    }

    static CopyRequest request(String src, String dst, Long size, String adler, int streams, StorageCredentials credentials) {
        return new CopyRequest(URI.create(nginx.url(src)), URI.create(nginx.url(dst)), size, adler, "both", false, streams,
                URI.create(nginx.url("/tok-b")), false, URI.create(nginx.url("/tok-a")), credentials);
    }

    static StorageCredentials tokens(String source, String dest) {
        return new StorageCredentials(source == null ? null : new BearerToken(source), dest == null ? null : new BearerToken(dest));
    }

    @Test
    void eachSideGetsItsOwnTokenOnOneStreamAndOnRangeStreams() throws Exception {
        String small = HttpMoverTest.write(nginx.file("/tok-a/t/small"), 300_000, 31);
        CopyResult r = MOVER.copy(request("/tok-a/t/small", "/tok-b/t/x/small", 300_000L, small, 1, tokens(SOURCE_TOKEN, DEST_TOKEN)));
        assertEquals(small, r.checksum());
        assertEquals(-1, Files.mismatch(nginx.file("/tok-a/t/small"), nginx.file("/tok-b/t/x/small")));

        long size = HttpMover.PARALLEL_THRESHOLD + 123_457;
        String big = HttpMoverTest.write(nginx.file("/tok-a/t/big"), size, 32);
        CopyResult parallel = MOVER.copy(request("/tok-a/t/big", "/tok-b/t/big", size, big, 3, tokens(SOURCE_TOKEN, DEST_TOKEN)));
        assertEquals(3, parallel.streams(), "Range requests carried the source's token too");
        assertEquals(big, parallel.checksum());
        Files.delete(nginx.file("/tok-a/t/big"));
        Files.delete(nginx.file("/tok-b/t/big"));
    }

    @Test
    void withoutItsTokenOrWithTheOtherSidesASideRefusesAndNothingIsWritten() throws Exception {
        String adler = HttpMoverTest.write(nginx.file("/tok-a/n/f"), 50_000, 33);
        MoverException none = assertThrows(MoverException.class, () -> MOVER.copy(request("/tok-a/n/f", "/tok-b/n/f", null, adler, 1,
                StorageCredentials.SERVICE)));
        assertEquals(MoverException.Code.PERMISSION_DENIED, none.code());
        assertTrue(none.getMessage().contains("HTTP 401"), none.getMessage());

        MoverException swapped = assertThrows(MoverException.class, () -> MOVER.copy(request("/tok-a/n/f", "/tok-b/n/f", null, adler, 1,
                tokens(SOURCE_TOKEN, SOURCE_TOKEN))));
        assertEquals(MoverException.Code.PERMISSION_DENIED, swapped.code());
        assertTrue(swapped.getMessage().contains("destination"), swapped.getMessage());
        assertFalse(Files.exists(nginx.file("/tok-b/n/f")));
        assertFalse(swapped.getMessage().contains(SOURCE_TOKEN), "a failure never quotes the token");
    }

    @Test
    void aRedirectIsNotFollowedSoTheTokenNeverReachesAnotherHost() throws Exception {
        try (ServerSocket other = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
             ServerSocket redirecting = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            AtomicInteger otherConnections = new AtomicInteger();
            daemon(() -> {
                try (Socket s = other.accept()) {
                    otherConnections.incrementAndGet();
                } catch (Exception ignored) {
                    // closed at the end of the test
                }
            });
            List<String> seen = new CopyOnWriteArrayList<>();
            daemon(() -> {
                try (Socket s = redirecting.accept()) {
                    BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.ISO_8859_1));
                    List<String> head = new ArrayList<>();
                    for (String l = in.readLine(); l != null && !l.isEmpty(); l = in.readLine()) {
                        head.add(l);
                    }
                    seen.addAll(head);
                    OutputStream out = s.getOutputStream();
                    out.write(("HTTP/1.1 302 Found\r\nLocation: http://127.0.0.1:" + other.getLocalPort() + "/elsewhere\r\n"
                            + "Content-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                } catch (Exception ignored) {
                    // closed at the end of the test
                }
            });
            URI source = URI.create("http://127.0.0.1:" + redirecting.getLocalPort() + "/f");
            MoverException e = assertThrows(MoverException.class, () -> MOVER.stat(new CopyRequest(source, URI.create(nginx.url("/tok-b/r/f")),
                    null, null, "none", false, 1, URI.create(nginx.url("/tok-b")), false, null, tokens(SOURCE_TOKEN, null))));
            assertEquals(MoverException.Code.HTTP_ERROR, e.code());
            assertTrue(seen.contains("Authorization: Bearer " + SOURCE_TOKEN), "the URL's own host got the token: " + seen);
            Thread.sleep(300);
            assertEquals(0, otherConnections.get(), "the redirect's host was never contacted");
        }
    }

    private static void daemon(Runnable r) {
        Thread t = new Thread(r, "test-server");
        t.setDaemon(true);
        t.start();
    }

    @Test
    void credentialsNeverPrintTheirToken() {
        CopyRequest req = request("/tok-a/p", "/tok-b/p", null, null, 1, tokens(SOURCE_TOKEN, DEST_TOKEN));
        assertFalse(req.toString().contains(SOURCE_TOKEN) || req.toString().contains(DEST_TOKEN), req.toString());
    }
}
