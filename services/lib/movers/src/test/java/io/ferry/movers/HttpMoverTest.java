package io.ferry.movers;

import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.NginxWebDav;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.Adler32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The HTTP/WebDAV mover against a real nginx: byte-identical copies, and each failure with its code. */
class HttpMoverTest {

    static NginxWebDav nginx;
    static final HttpMover MOVER = new HttpMover(Duration.ofSeconds(60), 128L << 20);

    @BeforeAll
    static void start() throws Exception {
        nginx = new NginxWebDav();
    }

    @AfterAll
    static void stop() throws Exception {
        nginx.close();
    }

    static String write(Path file, long size, long seed) throws Exception {
        Files.createDirectories(file.getParent());
        Adler32 adler = new Adler32();
        byte[] block = new byte[1 << 20];
        Random rnd = new Random(seed);
        try (OutputStream out = Files.newOutputStream(file)) {
            for (long left = size; left > 0; ) {
                rnd.nextBytes(block);
                int n = (int) Math.min(block.length, left);
                out.write(block, 0, n);
                adler.update(block, 0, n);
                left -= n;
            }
        }
        return String.format("%08x", adler.getValue());
    }

    /** dav:// is WebDAV over plain HTTP, moved as http:// (percent-escapes kept as they are). */
    /** A file Ferry makes for itself over WebDAV: parent collections made, the size asked for, its ADLER32, then removed (twice: no failure). */
    @Test
    void createsAGeneratedFileOverWebDavAndRemovesIt() throws Exception {
        URI base = URI.create(nginx.url("/se-b"));
        URI made = URI.create(nginx.url("/se-b/ferry-probes/3/r1"));
        String adler = MOVER.create(made, base, 5_000_001, null);
        assertEquals(5_000_001, Files.size(nginx.file("/se-b/ferry-probes/3/r1")));
        java.util.zip.Adler32 sum = new java.util.zip.Adler32();
        sum.update(Files.readAllBytes(nginx.file("/se-b/ferry-probes/3/r1")));
        assertEquals(String.format("%08x", sum.getValue()), adler);
        MOVER.remove(made, base, null);
        assertFalse(Files.exists(nginx.file("/se-b/ferry-probes/3/r1")));
        MOVER.remove(made, base, null);
    }

    @Test
    void davUrlsAreMovedAsHttp() throws Exception {
        String adler = write(nginx.file("/se-a/dav/a b.bin"), 200_000, 22);
        URI source = URI.create(nginx.url("/se-a/dav/a%20b.bin").replaceFirst("^http:", "dav:"));
        URI dest = URI.create(nginx.url("/se-b/dav/a%20b.bin").replaceFirst("^http:", "dav:"));
        CopyResult r = MOVER.copy(new CopyRequest(source, dest, 200_000L, adler, "both", false, 1,
                URI.create(nginx.url("/se-b").replaceFirst("^http:", "dav:"))));
        assertEquals(adler, r.checksum());
        assertEquals(-1, Files.mismatch(nginx.file("/se-a/dav/a b.bin"), nginx.file("/se-b/dav/a b.bin")));
    }

    static CopyRequest request(String src, String dst, Long size, String adler, String verify, boolean overwrite, int streams) {
        return new CopyRequest(URI.create(nginx.url(src)), URI.create(nginx.url(dst)), size, adler, verify, overwrite, streams,
                URI.create(nginx.url("/se-b")));
    }

    @Test
    void aGibibyteArrivesByteIdenticalOverFourStreams() throws Exception {
        long size = 1L << 30;
        String adler = write(nginx.file("/se-a/big/run1.bin"), size, 1);
        CopyResult r = MOVER.copy(request("/se-a/big/run1.bin", "/se-b/data/2026/run1.bin", size, adler, "both", false, 4));
        assertEquals(4, r.streams());
        assertEquals(size, r.bytes());
        assertEquals(adler, r.checksum());
        assertEquals(-1, Files.mismatch(nginx.file("/se-a/big/run1.bin"), nginx.file("/se-b/data/2026/run1.bin")));
        Files.delete(nginx.file("/se-a/big/run1.bin"));
        Files.delete(nginx.file("/se-b/data/2026/run1.bin"));
    }

    @Test
    void everyRangeOfAParallelCopyAndItsUploadCarryTheFilesSciTag() throws Exception {
        long size = HttpMover.PARALLEL_THRESHOLD + (1 << 20);
        String adler = write(nginx.file("/se-a/scitag/r1.bin"), size, 3);
        CopyResult r = MOVER.copy(request("/se-a/scitag/r1.bin", "/se-b/scitag/r1.bin", size, adler, "source", false, 4).withSciTag(65535));
        assertEquals(4, r.streams());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            // the copy's data requests; the HEAD and MKCOL that prepare the destination carry no label, as FTS3's gfal2 sends none there
            List<String> lines = nginx.requests().stream().filter(l -> l.contains("/scitag/r1.bin ") && l.matches("(GET|PUT) .*")).toList();
            assertTrue(lines.stream().filter(l -> l.startsWith("GET ")).count() >= 4, lines.toString());
            assertTrue(lines.contains("PUT /se-b/scitag/r1.bin scitag=65535"), lines.toString());
            assertTrue(lines.stream().allMatch(l -> l.endsWith(" scitag=65535")), lines.toString());
        });
        Files.delete(nginx.file("/se-a/scitag/r1.bin"));
        Files.delete(nginx.file("/se-b/scitag/r1.bin"));
    }

    @Test
    void aSciTagOutsideFts3sRangeIsNoCopy() {
        assertThrows(IllegalArgumentException.class, () -> request("/se-a/x", "/se-b/x", 1L, null, "none", false, 1).withSciTag(64));
        assertThrows(IllegalArgumentException.class, () -> request("/se-a/x", "/se-b/x", 1L, null, "none", false, 1).withSciTag(65536));
    }

    @Test
    void smallFilesGoOnOneStreamIntoNewCollections() throws Exception {
        String adler = write(nginx.file("/se-a/small/f1"), 100_000, 2);
        CopyResult r = MOVER.copy(request("/se-a/small/f1", "/se-b/x/y/z/f1", 100_000L, adler, "source", false, 8));
        assertEquals(1, r.streams());
        assertEquals(-1, Files.mismatch(nginx.file("/se-a/small/f1"), nginx.file("/se-b/x/y/z/f1")));
    }

    @Test
    void oneStreamCopiesALargeFileAndAKeptConnectionServesTheNext() throws Exception {
        long size = (24L << 20) + 12_345;
        String adler = write(nginx.file("/se-a/one/large.bin"), size, 4);
        for (int i = 0; i < 2; i++) {
            CopyResult r = MOVER.copy(request("/se-a/one/large.bin", "/se-b/one/large" + i + ".bin", size, adler, "both", false, 1));
            assertEquals(1, r.streams());
            assertEquals(size, r.bytes());
            assertEquals(adler, r.checksum());
            assertEquals(-1, Files.mismatch(nginx.file("/se-a/one/large.bin"), nginx.file("/se-b/one/large" + i + ".bin")));
        }
    }

    @Test
    void aDestinationCollectionRemovedAfterItsFirstFileIsMadeAgain() throws Exception {
        String adler = write(nginx.file("/se-a/again/f"), 300_000, 6);
        MOVER.copy(request("/se-a/again/f", "/se-b/again/sub/f0", 300_000L, adler, "both", false, 1));
        // removed behind Ferry's back: the mover remembers the collections and sends no MKCOL, the PUT gets 409
        DirectoryTrees.delete(nginx.file("/se-b/again"));
        CopyResult r = MOVER.copy(request("/se-a/again/f", "/se-b/again/sub/f1", 300_000L, adler, "both", false, 1));
        assertEquals(300_000, r.bytes());
        assertEquals(-1, Files.mismatch(nginx.file("/se-a/again/f"), nginx.file("/se-b/again/sub/f1")));
    }

    @Test
    void uploadsReuseAKeptConnectionButNeverOneTheServerClosed() throws Exception {
        String adler = write(nginx.file("/se-a/kept/f"), 200_000, 7);
        try (CountingPutServer dest = new CountingPutServer()) {
            for (int i = 0; i < 3; i++) {
                if (i == 2) {
                    dest.closeIdleConnections();  // as a server whose keep-alive timeout passed
                }
                CopyResult r = MOVER.transfer(new CopyRequest(URI.create(nginx.url("/se-a/kept/f")), dest.url("/f" + i), 200_000L, adler, "source",
                        true, 1, dest.url("/")), new SourceStat(200_000, true, null), TransferProgress.unwatched());
                assertEquals(adler, r.checksum());
            }
            assertEquals(List.of(200_000L, 200_000L, 200_000L), dest.bodies(), "every upload arrived whole");
            assertEquals(2, dest.connections(), "the second upload went on the first one's connection, the third on a new one");
        }
    }

    /** A WebDAV destination that keeps connections open, counts them and the bodies PUT to it, and can drop them. */
    static final class CountingPutServer implements AutoCloseable {
        private final ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        private final List<Socket> open = new CopyOnWriteArrayList<>();
        private final List<Long> bodies = new CopyOnWriteArrayList<>();
        private final AtomicInteger accepted = new AtomicInteger();

        CountingPutServer() throws Exception {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = server.accept();
                        accepted.incrementAndGet();
                        open.add(s);
                        Thread serve = new Thread(() -> serve(s));
                        serve.setDaemon(true);
                        serve.start();
                    }
                } catch (Exception ignored) {
                    // closed: the test is over
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
        }

        private void serve(Socket s) {
            try (s) {
                DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
                while (true) {
                    long length = 0;
                    String line = readLine(in);
                    if (line == null) {
                        return;
                    }
                    for (String h = readLine(in); h != null && !h.isEmpty(); h = readLine(in)) {
                        if (h.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                            length = Long.parseLong(h.substring(15).trim());
                        }
                    }
                    in.skipNBytes(length);
                    bodies.add(length);
                    s.getOutputStream().write("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    s.getOutputStream().flush();
                }
            } catch (Exception ignored) {
                // the connection was dropped
            }
        }

        private static String readLine(DataInputStream in) throws IOException {
            StringBuilder b = new StringBuilder();
            for (int c = in.read(); c >= 0; c = in.read()) {
                if (c == '\n') {
                    return b.toString().strip();
                }
                b.append((char) c);
            }
            return b.length() == 0 ? null : b.toString();
        }

        URI url(String path) {
            return URI.create("http://127.0.0.1:" + server.getLocalPort() + path);
        }

        void closeIdleConnections() throws Exception {
            for (Socket s : open) {
                s.close();
            }
            Thread.sleep(100);  // the FIN reaches the client's side
        }

        int connections() {
            return accepted.get();
        }

        List<Long> bodies() {
            return bodies;
        }

        @Override
        public void close() throws Exception {
            server.close();
            closeIdleConnections();
        }
    }

    @Test
    void concurrentCopiesStayWithinTheirCopyMemory() throws Exception {
        // 8 MiB for every copy together, at most 2 MiB each: less than one 4 MiB range, so a 4-stream request moves on
        // one stream, and six copies at once still all arrive whole
        HttpMover frugal = new HttpMover(Duration.ofSeconds(60), 8L << 20);
        long size = (70L << 20) + 7;
        String adler = write(nginx.file("/se-a/frugal/big.bin"), size, 5);
        ExecutorService copies = Executors.newFixedThreadPool(6);
        try {
            List<Future<CopyResult>> results = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                CopyRequest req = request("/se-a/frugal/big.bin", "/se-b/frugal/copy" + i + ".bin", size, adler, "source", false, 4);
                results.add(copies.submit(() -> frugal.copy(req)));
            }
            for (int i = 0; i < 6; i++) {
                CopyResult r = results.get(i).get(5, TimeUnit.MINUTES);
                assertEquals(1, r.streams());
                assertEquals(adler, r.checksum());
                assertEquals(-1, Files.mismatch(nginx.file("/se-a/frugal/big.bin"), nginx.file("/se-b/frugal/copy" + i + ".bin")));
            }
        } finally {
            copies.shutdownNow();
        }
        assertEquals(frugal.copyMemory().total(), frugal.copyMemory().available(), "every copy gave its memory back");
        // an upload the destination refuses half-way through the reading
        assertThrows(MoverException.class, () -> frugal.transfer(
                new CopyRequest(URI.create(nginx.url("/se-a/frugal/big.bin")), URI.create(nginx.url("/flaky/big.bin")), size, adler, "none",
                        false, 4, URI.create(nginx.url("/flaky"))), new SourceStat(size, true, null), TransferProgress.unwatched()));
        assertEquals(frugal.copyMemory().total(), frugal.copyMemory().available(), "a failed copy too");
    }

    @Test
    void aSourceThatFallsSilentTimesOut() throws Exception {
        // a server that answers the GET with half of the promised body, then says nothing more
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread silent = new Thread(() -> {
                try {
                    while (true) {
                        Socket s = server.accept();
                        byte[] head = new byte[4096];
                        int n = s.getInputStream().read(head);
                        String request = new String(head, 0, Math.max(0, n), StandardCharsets.ISO_8859_1);
                        String answer = request.startsWith("GET") ? "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n" + "x".repeat(50_000)
                                : "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n";
                        s.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
                        s.getOutputStream().flush();
                    }
                } catch (Exception ignored) {
                    // the server socket closed: the test is over
                }
            });
            silent.setDaemon(true);
            silent.start();
            HttpMover impatient = new HttpMover(Duration.ofSeconds(1), 1L << 20);
            URI source = URI.create("http://127.0.0.1:" + server.getLocalPort() + "/f");
            long t0 = System.nanoTime();
            MoverException e = assertThrows(MoverException.class, () -> impatient.transfer(
                    new CopyRequest(source, URI.create(nginx.url("/se-b/silent")), null, null, "none", false, 1, URI.create(nginx.url("/se-b"))),
                    new SourceStat(100_000, false, null), TransferProgress.unwatched()));
            assertEquals(MoverException.Code.TIMEOUT, e.code());
            assertTrue(e.retryable());
            assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "the silence is noticed after the I/O timeout, not never");
            assertFalse(Files.exists(nginx.file("/se-b/silent")), "no partial destination");
        }
    }

    @Test
    void failuresCarryTheirCodeAndLeaveNoPartialDestination() throws Exception {
        String adler = write(nginx.file("/se-a/f2"), 50_000, 3);
        MoverException missing = assertThrows(MoverException.class,
                () -> MOVER.copy(request("/se-a/nope", "/se-b/f2", null, null, "none", false, 1)));
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, missing.code());
        assertFalse(missing.retryable());

        MOVER.copy(request("/se-a/f2", "/se-b/f2", null, null, "none", false, 1));
        MoverException exists = assertThrows(MoverException.class, () -> MOVER.copy(request("/se-a/f2", "/se-b/f2", null, null, "none", false, 1)));
        assertEquals(MoverException.Code.DEST_EXISTS, exists.code());
        assertTrue(exists.getMessage().startsWith("Destination file exists and overwrite is not enabled"), "FTS3's words: " + exists.getMessage());
        SourceStat there = MOVER.statDestination(request("/se-a/f2", "/se-b/f2", null, null, "none", false, 1));
        assertEquals(50_000, there.size());
        assertEquals(adler, there.checksum(), "nginx offers no digest: the destination is read and summed");
        MOVER.copy(request("/se-a/f2", "/se-b/f2", null, null, "none", true, 1));

        MoverException corrupt = assertThrows(MoverException.class,
                () -> MOVER.copy(request("/se-a/f2", "/se-b/f3", 50_000L, "00000001", "both", false, 1)));
        assertEquals(MoverException.Code.CHECKSUM_MISMATCH, corrupt.code());
        assertEquals("checksum", corrupt.phase());
        assertFalse(Files.exists(nginx.file("/se-b/f3")), "a wrong copy is removed");

        MoverException size = assertThrows(MoverException.class,
                () -> MOVER.copy(request("/se-a/f2", "/se-b/f4", 49_999L, adler, "both", false, 1)));
        assertEquals(MoverException.Code.SIZE_MISMATCH, size.code());

        MoverException busy = assertThrows(MoverException.class,
                () -> MOVER.copy(request("/flaky/f2", "/se-b/f5", null, null, "none", false, 1)));
        assertEquals(MoverException.Code.HTTP_5XX, busy.code());
        assertTrue(busy.retryable());
    }

    @Test
    void aCopyThatFailsBeforeItWritesLeavesAnExistingDestinationAlone() throws Exception {
        // a destination that is not this attempt's: it appeared after the prepare phase, and the job does not overwrite
        Path kept = nginx.file("/se-b/keep/f1");
        write(kept, 20_000, 8);
        byte[] before = Files.readAllBytes(kept);
        SourceStat stated = new SourceStat(20_000, false, null);

        MoverException gone = assertThrows(MoverException.class, () -> MOVER.transfer(
                request("/se-a/keep/nope", "/se-b/keep/f1", null, null, "none", false, 1), stated, TransferProgress.unwatched()));
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, gone.code());
        org.junit.jupiter.api.Assertions.assertArrayEquals(before, Files.readAllBytes(kept), "the source was missing, nothing was written");

        write(nginx.file("/se-a/keep/f2"), 30_000, 9);
        MoverException changed = assertThrows(MoverException.class, () -> MOVER.transfer(
                request("/se-a/keep/f2", "/se-b/keep/f1", null, null, "none", false, 1), stated, TransferProgress.unwatched()));
        assertEquals(MoverException.Code.SIZE_MISMATCH, changed.code());
        org.junit.jupiter.api.Assertions.assertArrayEquals(before, Files.readAllBytes(kept), "the source changed, nothing was written");

        TransferProgress stopped = TransferProgress.unwatched();
        stopped.abort(MoverException.Code.CANCELED, "canceled before the upload began");
        write(nginx.file("/se-a/keep/f3"), 20_000, 10);
        MoverException canceled = assertThrows(MoverException.class, () -> MOVER.transfer(
                request("/se-a/keep/f3", "/se-b/keep/f1", null, null, "none", false, 1), stated, stopped));
        assertEquals(MoverException.Code.CANCELED, canceled.code());
        org.junit.jupiter.api.Assertions.assertArrayEquals(before, Files.readAllBytes(kept), "the copy was stopped before it wrote");
    }
}
