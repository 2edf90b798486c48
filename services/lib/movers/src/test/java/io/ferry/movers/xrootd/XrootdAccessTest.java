package io.ferry.movers.xrootd;

import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import io.ferry.movers.ChecksumAlgorithm;
import io.ferry.movers.MoverException;
import io.ferry.movers.SourceStat;
import io.ferry.movers.StorageAccess;
import io.ferry.movers.TlsSockets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.Random;
import java.util.zip.Adler32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ferry's XRootD client against Debian's xrootd 5.5.3: the single-file operations, reuse of sessions, error codes. */
class XrootdAccessTest {

    static Path dir;
    static TestCertificates pki;
    static XrootdServer server;
    static XrootdAccess access;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("ferry-xrootd-pki");
        pki = TestCertificates.create(dir);
        server = new XrootdServer(pki, java.util.Map.of(), XrootdServer.Options.plain());
        access = new XrootdAccess(Duration.ofSeconds(30), TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (access != null) {
            access.close();
        }
        if (server != null) {
            server.close();
        }
        DirectoryTrees.delete(dir);
    }

    static URI root(String path) {
        return URI.create(server.rootUrl("root", path));
    }

    /** Random bytes of {@code size} written at {@code file}; returns their adler32. */
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

    /** Reads the whole channel; returns size and adler32. */
    static String[] drain(ReadableByteChannel in) throws Exception {
        Adler32 adler = new Adler32();
        ByteBuffer b = ByteBuffer.allocate(1 << 20);
        long n = 0;
        try (in) {
            int r;
            while ((r = in.read(b)) >= 0) {
                b.flip();
                adler.update(b);
                b.clear();
                n += r;
            }
        }
        return new String[] {Long.toString(n), String.format("%08x", adler.getValue())};
    }

    @Test
    void statGivesSizeAndTheServersAdler32AndNoMd5WhenNotConfigured() throws Exception {
        String adler = write(server.file("/stat/a"), 123_457, 1);
        SourceStat s = access.stat(root("/stat/a"), ChecksumAlgorithm.ADLER32, null, "prepare");
        assertEquals(123_457, s.size());
        assertEquals(adler, s.checksum());
        java.time.Instant then = java.time.Instant.parse("2026-01-02T03:04:05Z");
        Files.setLastModifiedTime(server.file("/stat/a"), java.nio.file.attribute.FileTime.from(then));
        assertEquals(then, access.stat(root("/stat/a"), null, null, "prepare").mtime(), "kXR_stat's modification time");
        SourceStat md5 = access.stat(root("/stat/a"), ChecksumAlgorithm.MD5, null, "prepare");
        assertEquals(123_457, md5.size());
        assertNull(md5.checksum(), "the server has only adler32 configured");
        assertTrue(access.exists(root("/stat/a"), null, "prepare"));
        assertFalse(access.exists(root("/stat/none"), null, "prepare"));
    }

    @Test
    void bothUrlFormsNameTheAbsolutePath() throws Exception {
        write(server.file("/forms/f"), 10, 2);
        assertEquals(10, access.stat(URI.create("root://localhost:" + server.rootPort + "//forms/f"), null, null, "p").size());
        assertEquals(10, access.stat(URI.create("root://localhost:" + server.rootPort + "/forms/f"), null, null, "p").size());
    }

    @Test
    void oneMebibyteAndALargerFileReadByteIdentical() throws Exception {
        for (long size : new long[] {1 << 20, (70L << 20) + 13, 0}) {
            String adler = write(server.file("/read/f" + size), size, size);
            String[] got = drain(access.read(root("/read/f" + size), null, "transfer"));
            assertEquals(Long.toString(size), got[0]);
            assertEquals(adler, got[1]);
        }
    }

    @Test
    void writeCommitsAFileTheServerChecksumsTheSame() throws Exception {
        long size = (33L << 20) + 7;
        Path src = dir.resolve("up-src");
        String adler = write(src, size, 5);
        URI dst = root("/up/sub/dir/file");
        access.makeParents(root("/"), dst, null, "transfer");
        try (StorageAccess.Upload up = access.write(dst, size, null, "transfer"); var in = Files.newByteChannel(src)) {
            ByteBuffer b = ByteBuffer.allocateDirect(256 << 10);
            while (in.read(b) >= 0) {
                b.flip();
                up.write(b);
                b.clear();
            }
            up.commit();
        }
        assertEquals(-1, Files.mismatch(src, server.file("/up/sub/dir/file")));
        assertEquals(adler, access.stat(dst, ChecksumAlgorithm.ADLER32, null, "transfer").checksum());
        // replacing is allowed by write
        try (StorageAccess.Upload up = access.write(dst, 3, null, "transfer")) {
            up.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            up.commit();
        }
        assertEquals(3, Files.size(server.file("/up/sub/dir/file")));
        access.delete(dst, null, "transfer");
        assertFalse(Files.exists(server.file("/up/sub/dir/file")));
        access.delete(dst, null, "transfer");  // already gone: no failure
    }

    @Test
    void anAbandonedUploadLeavesNoFile() throws Exception {
        URI dst = root("/abandon/f");
        try (StorageAccess.Upload up = access.write(dst, 1000, null, "transfer")) {
            up.write(ByteBuffer.wrap(new byte[500]));
        }
        assertFalse(Files.exists(server.file("/abandon/f")));
        assertFalse(access.exists(dst, null, "transfer"));
    }

    @Test
    void aShortUploadIsASizeMismatch() throws Exception {
        URI dst = root("/short/f");
        try (StorageAccess.Upload up = access.write(dst, 1000, null, "transfer")) {
            up.write(ByteBuffer.wrap(new byte[10]));
            MoverException e = assertThrows(MoverException.class, up::commit);
            assertEquals(MoverException.Code.SIZE_MISMATCH, e.code());
        }
        assertFalse(Files.exists(server.file("/short/f")));
    }

    @Test
    void errorsMapToFerrysCodes() throws Exception {
        MoverException missing = assertThrows(MoverException.class, () -> access.stat(root("/nope/x"), null, null, "prepare"));
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, missing.code());
        assertTrue(missing.getMessage().contains("kXR_NotFound"), missing.getMessage());
        MoverException missingRead = assertThrows(MoverException.class, () -> access.read(root("/nope/y"), null, "transfer"));
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, missingRead.code());

        write(server.file("/exists/f"), 5, 3);
        MoverException exists = assertThrows(MoverException.class, () -> access.create(root("/exists/f"), 5, null, "transfer"));
        assertEquals(MoverException.Code.DEST_EXISTS, exists.code());
        assertTrue(exists.getMessage().startsWith("Destination file exists and overwrite is not enabled"), exists.getMessage());
        assertEquals(5, Files.size(server.file("/exists/f")), "the existing file is untouched");
    }

    @Test
    void manySmallFilesShareAFewSessions() throws Exception {
        server.mkdirs("/many");
        long before = access.connectionsOpened();
        long tlsBefore = access.tlsConnectionsOpened();
        for (int i = 0; i < 50; i++) {
            String adler = write(server.file("/many/f" + i), 4096 + i, 100 + i);
            URI u = root("/many/f" + i);
            assertEquals(adler, access.stat(u, ChecksumAlgorithm.ADLER32, null, "prepare").checksum());
            assertEquals(adler, drain(access.read(u, null, "transfer"))[1]);
            URI copy = root("/many/copy" + i);
            try (StorageAccess.Upload up = access.write(copy, 10, null, "transfer")) {
                up.write(ByteBuffer.wrap(new byte[10]));
                up.commit();
            }
        }
        long opened = access.connectionsOpened() - before;
        assertEquals(0, access.tlsConnectionsOpened() - tlsBefore, "plain root:// on a server that does not ask for TLS");
        assertTrue(opened <= 1, "150 files' operations one after the other need one session, opened " + opened);
        assertTrue(access.idleConnections() >= 1);
    }

    @Test
    void pathsThatWouldChangeMeaningAreRefusedBeforeAnyIo() {
        long before = access.connectionsOpened();
        for (String bad : new String[] {"/a/../etc/passwd", "/a/%2e%2e/etc/passwd", "/a/%2E%2E/b", "/a/x%3Fcks.type=md5",
                "/a/x?tpc.src=evil", "/a/%00b", "/a/%0ab", "/a/./b"}) {
            MoverException e = assertThrows(MoverException.class, () -> access.stat(URI.create("root://localhost:" + server.rootPort + bad), null, null, "prepare"), bad);
            assertEquals(MoverException.Code.UNSUPPORTED_URL, e.code(), bad);
        }
        assertEquals(before, access.connectionsOpened(), "no connection for refused URLs");
    }

    @Test
    void rootsIsTlsFromTheStart() throws Exception {
        String adler = write(server.file("/tls/f"), (3L << 20) + 1, 9);
        URI u = URI.create(server.rootUrl("roots", "/tls/f"));
        long tlsBefore = access.tlsConnectionsOpened();
        assertEquals(adler, access.stat(u, ChecksumAlgorithm.ADLER32, null, "prepare").checksum());
        assertEquals(adler, drain(access.read(u, null, "transfer"))[1]);
        server.mkdirs("/tls/up");
        try (StorageAccess.Upload up = access.write(URI.create(server.rootUrl("roots", "/tls/up/g")), 3, null, "transfer")) {
            up.write(ByteBuffer.wrap(new byte[] {7, 8, 9}));
            up.commit();
        }
        assertEquals(3, Files.size(server.file("/tls/up/g")));
        assertTrue(access.tlsConnectionsOpened() > tlsBefore);
    }

    @Test
    void aPooledSessionTheNetworkDroppedIsReplaced() throws Exception {
        String adler = write(server.file("/stale/f"), 100_000, 11);
        try (CuttableProxy proxy = new CuttableProxy(server.rootPort);
             XrootdAccess own = new XrootdAccess(Duration.ofSeconds(30), TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty()))) {
            URI u = URI.create("root://localhost:" + proxy.port() + "/stale/f");
            assertEquals(adler, drain(own.read(u, null, "transfer"))[1]);
            assertEquals(1, own.connectionsOpened());
            proxy.cutAll();
            assertEquals(adler, drain(own.read(u, null, "transfer"))[1], "the dead session is replaced, the read succeeds");
            assertEquals(2, own.connectionsOpened());
            assertEquals(100_000, own.stat(u, null, null, "prepare").size());
            assertEquals(2, own.connectionsOpened(), "the new session is kept");
            assertEquals(2, proxy.accepted());
        }
    }

    @Test
    void aPathOutsideTheExportIsRefused() throws Exception {
        try (XrootdServer confined = new XrootdServer(pki, java.util.Map.of(), XrootdServer.Options.plain().withExport("/public"))) {
            write(confined.file("/public/f"), 5, 1);
            write(confined.file("/private/f"), 5, 1);
            assertEquals(5, access.stat(URI.create(confined.rootUrl("root", "/public/f")), null, null, "prepare").size());
            MoverException e = assertThrows(MoverException.class,
                    () -> access.stat(URI.create(confined.rootUrl("root", "/private/f")), null, null, "prepare"));
            assertEquals(MoverException.Code.PERMISSION_DENIED, e.code(), e.getMessage());
            MoverException read = assertThrows(MoverException.class,
                    () -> access.read(URI.create(confined.rootUrl("root", "/private/f")), null, "transfer"));
            assertEquals(MoverException.Code.PERMISSION_DENIED, read.code(), read.getMessage());
        }
    }

    @Test
    void redirectsAreFollowedAfterWaitingAsTheServerAsks() throws Exception {
        String adler = write(server.file("/redirected/f"), 2_000_000, 12);
        try (FakeRedirector manager = new FakeRedirector("localhost", server.rootPort, "ferry.redirected=1")) {
            URI u = URI.create("root://localhost:" + manager.port() + "//redirected/f");
            assertEquals(2_000_000, access.stat(u, null, null, "prepare").size());
            assertEquals(adler, drain(access.read(u, null, "transfer"))[1]);
            assertEquals(java.util.List.of(XrootdProtocol.STAT + " /redirected/f", XrootdProtocol.STAT + " /redirected/f",
                    XrootdProtocol.OPEN + " /redirected/f", XrootdProtocol.OPEN + " /redirected/f"), manager.requests,
                    "each request asked again after kXR_wait, then redirected");
        }
    }

    @Test
    void md5ComesFromAServerThatHasItConfigured() throws Exception {
        try (XrootdServer both = new XrootdServer(pki, java.util.Map.of(), XrootdServer.Options.plain().withConfig("xrootd.chksum adler32 md5"))) {
            String adler = write(both.file("/sums/f"), 300_001, 4);
            String md5 = java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("MD5").digest(Files.readAllBytes(both.file("/sums/f"))));
            URI u = URI.create(both.rootUrl("root", "/sums/f"));
            assertEquals(md5, access.stat(u, ChecksumAlgorithm.MD5, null, "prepare").checksum());
            assertEquals(adler, access.stat(u, ChecksumAlgorithm.ADLER32, null, "prepare").checksum());
        }
    }

    @Test
    void aServerThatNeverAnswersIsATimeout() throws Exception {
        try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress());
             XrootdAccess impatient = new XrootdAccess(Duration.ofMillis(300), TlsSockets.storageTls(Optional.empty(), Optional.empty(), Optional.empty()))) {
            MoverException e = assertThrows(MoverException.class,
                    () -> impatient.stat(URI.create("root://localhost:" + silent.getLocalPort() + "/f"), null, null, "prepare"));
            assertEquals(MoverException.Code.TIMEOUT, e.code(), e.getMessage());
        }
    }

    @Test
    void aConnectionLostMidReadIsAConnectionReset() throws Exception {
        write(server.file("/cut/f"), 200L << 20, 13);
        try (CuttableProxy proxy = new CuttableProxy(server.rootPort);
             XrootdAccess own = new XrootdAccess(Duration.ofSeconds(30), TlsSockets.storageTls(Optional.empty(), Optional.empty(), Optional.empty()))) {
            ReadableByteChannel in = own.read(URI.create("root://localhost:" + proxy.port() + "/cut/f"), null, "transfer");
            ByteBuffer b = ByteBuffer.allocate(1 << 20);
            while (b.hasRemaining()) {
                in.read(b);
            }
            proxy.cutAll();
            java.io.IOException e = assertThrows(java.io.IOException.class, () -> drain(in));
            MoverException cause = assertInstanceOf(MoverException.class, e.getCause(), e.toString());
            assertEquals(MoverException.Code.CONNECTION_RESET, cause.code(), cause.getMessage());
            assertEquals(0, own.idleConnections(), "a session that lost its stream is not pooled");
        }
    }

    @Test
    void withoutACredentialTheServersUnixOrHostProtocolIsUsed() throws Exception {
        for (String protocol : new String[] {"unix", "host"}) {
            try (XrootdServer secured = new XrootdServer(pki, java.util.Map.of(), XrootdServer.Options.plain()
                    .withConfig("xrootd.seclib libXrdSec.so\nsec.protocol " + protocol + "\nsec.protbind * only " + protocol))) {
                write(secured.file("/auth/f"), 6, 1);
                assertEquals(6, access.stat(URI.create(secured.rootUrl("root", "/auth/f")), null, null, "prepare").size(), protocol);
                // "only": a session that did not authenticate would be refused its first request
                if (protocol.equals("unix")) {
                    assertTrue(secured.log().contains("login as " + System.getProperty("user.name")), secured.log());
                }
            }
        }
    }

    @Test
    void aServerThatRequiresTlsGetsItOnRootUrls() throws Exception {
        for (String requirement : new String[] {"all", "login", "session"}) {
            try (XrootdServer strict = new XrootdServer(pki, java.util.Map.of(), XrootdServer.Options.plain().withConfig("xrootd.tls " + requirement))) {
                String adler = write(strict.file("/tls-required/f"), 70_000, 6);
                URI u = URI.create(strict.rootUrl("root", "/tls-required/f"));
                long tlsBefore = access.tlsConnectionsOpened();
                assertEquals(adler, access.stat(u, ChecksumAlgorithm.ADLER32, null, "prepare").checksum(), requirement);
                assertEquals(adler, drain(access.read(u, null, "transfer"))[1], requirement);
                assertEquals(tlsBefore + 1, access.tlsConnectionsOpened(), "the server's 'xrootd.tls " + requirement + "' switched the session to TLS");
            }
        }
    }

    @Test
    void redirectLoopsAndEndlessWaitsEnd() throws Exception {
        try (FakeRedirector loop = new FakeRedirector("localhost", 0, "again=1")) {
            MoverException e = assertThrows(MoverException.class,
                    () -> access.stat(URI.create("root://localhost:" + loop.port() + "/f"), null, null, "prepare"));
            assertEquals(MoverException.Code.HTTP_ERROR, e.code());
            assertTrue(e.getMessage().contains("redirects"), e.getMessage());
            assertEquals(2 * (XrootdRequests.MAX_REDIRECTS + 1), loop.requests.size(), "each hop asked twice (kXR_wait, then the redirect)");
        }
        try (FakeRedirector busy = new FakeRedirector("localhost", server.rootPort, "", true)) {
            MoverException e = assertThrows(MoverException.class,
                    () -> access.stat(URI.create("root://localhost:" + busy.port() + "/f"), null, null, "prepare"));
            assertEquals(MoverException.Code.TIMEOUT, e.code(), e.getMessage());
            assertEquals(XrootdConnection.MAX_WAITS + 1, busy.requests.size());
        }
    }
}
