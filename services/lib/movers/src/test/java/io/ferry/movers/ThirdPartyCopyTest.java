package io.ferry.movers;

import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.GridSiteDelegationServer;
import io.ferry.dev.NginxWebDav;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTP third-party copy against real servers: XRootD as a destination SE that pulls from an nginx source when Ferry
 * sends it a COPY, the way WLCG storage moves data without it passing through the transfer service.
 */
class ThirdPartyCopyTest {

    static final String SOURCE_TOKEN = "eyJhbGciOiJFUzI1NiJ9.cHVsbA.c2ln";
    static Path dir;
    static XrootdServer xrootd;
    static NginxWebDav nginx;
    static HttpMover mover;
    static TestCertificates pki;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("ferry-tpc-pki");
        pki = TestCertificates.create(dir);
        xrootd = new XrootdServer(pki);
        nginx = new NginxWebDav(null, java.util.Map.of("tok-a", java.util.Set.of(SOURCE_TOKEN)));
        mover = new HttpMover(Duration.ofSeconds(60), 64L << 20, TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (xrootd != null) {
            xrootd.close();
        }
        if (nginx != null) {
            nginx.close();
        }
        DirectoryTrees.delete(dir);
    }

    static CopyRequest pull(String src, String dst, Long size, String adler, String verify, int streams) {
        return new CopyRequest(URI.create(nginx.url(src)), URI.create(xrootd.url(dst)), size, adler, verify, false, streams,
                URI.create(xrootd.url("/")), true);
    }

    @Test
    void theDestinationPullsTheFileItselfAndItsDigestIsChecked() throws Exception {
        long size = (30L << 20) + 5;
        String adler = HttpMoverTest.write(nginx.file("/se-a/tpc/f1"), size, 21);
        CopyResult r = mover.copy(pull("/se-a/tpc/f1", "/tpc/run1/f1", size, adler, "both", 2));
        assertEquals(size, r.bytes());
        assertEquals(adler, r.checksum(), "the destination's digest");
        assertEquals(-1, Files.mismatch(nginx.file("/se-a/tpc/f1"), xrootd.file("/tpc/run1/f1")));
        String log = xrootd.log();
        assertTrue(log.contains("event=TRANSFER_SUCCESS, local=/tpc/run1/f1, remote=" + nginx.url("/se-a/tpc/f1")), log);
        assertTrue(log.contains("streams=2, bytes_transferred=" + size), "the SE pulled on the streams asked for: " + log);
    }

    @Test
    void withNoChecksumGivenTheSourceIsReadToCheckTheCopyAndAWrongOneFailsIt() throws Exception {
        String adler = HttpMoverTest.write(nginx.file("/se-a/tpc/f2"), 3_000_000, 22);
        CopyResult r = mover.copy(pull("/se-a/tpc/f2", "/tpc/run2/f2", null, null, "target", 1));
        assertEquals(adler, r.checksum());

        MoverException wrong = assertThrows(MoverException.class,
                () -> mover.copy(pull("/se-a/tpc/f2", "/tpc/run2/f2-again", null, "0badc0de", "source", 1)));
        assertEquals(MoverException.Code.CHECKSUM_MISMATCH, wrong.code());
        assertFalse(wrong.retryable());
        assertFalse(Files.exists(xrootd.file("/tpc/run2/f2-again")), "a copy that fails its check is removed");
    }

    /** XRootD here offers adler32 digests only: a job's MD5 is checked against the destination read back with MD5. */
    @Test
    void anMd5JobIsCheckedOnTheDestinationTheSePulled() throws Exception {
        HttpMoverTest.write(nginx.file("/se-a/tpc/m1"), 2_000_000, 29);
        String md5 = Md5CopyTest.md5(nginx.file("/se-a/tpc/m1"));
        URI destBase = URI.create(xrootd.url("/"));
        CopyResult r = mover.copy(new CopyRequest(URI.create(nginx.url("/se-a/tpc/m1")), URI.create(xrootd.url("/tpc/run9/m1")), 2_000_000L,
                md5, "both", false, 1, destBase, true, null, null, ChecksumAlgorithm.MD5));
        assertEquals(md5, r.checksum());

        MoverException wrong = assertThrows(MoverException.class, () -> mover.copy(new CopyRequest(URI.create(nginx.url("/se-a/tpc/m1")),
                URI.create(xrootd.url("/tpc/run9/m1-wrong")), null, "0".repeat(32), "target", false, 1, destBase, true, null, null,
                ChecksumAlgorithm.MD5)));
        assertEquals(MoverException.Code.CHECKSUM_MISMATCH, wrong.code());
        assertEquals("User-defined and destination MD5 checksum do not match (" + "0".repeat(32) + " != " + md5 + ")", wrong.getMessage());
        assertFalse(Files.exists(xrootd.file("/tpc/run9/m1-wrong")), "a copy that fails its check is removed");
    }

    @Test
    void theSourcesTokenTravelsAsTransferHeaderAuthorizationAndWithoutItTheSourceRefusesThePull() throws Exception {
        String adler = HttpMoverTest.write(nginx.file("/tok-a/tpc/t1"), 1_000_000, 28);
        xrootd.mkdirs("/tpc/run7");
        CopyRequest withToken = new CopyRequest(URI.create(nginx.url("/tok-a/tpc/t1")), URI.create(xrootd.url("/tpc/run7/t1")), 1_000_000L, adler,
                "both", false, 1, URI.create(xrootd.url("/")), true, null, new StorageCredentials(new BearerToken(SOURCE_TOKEN), null));
        // the mover's own stat of the source needs the token as well
        assertEquals(1_000_000, mover.stat(withToken).size());
        CopyResult r = mover.transfer(withToken, new SourceStat(1_000_000, true, null), TransferProgress.unwatched());
        assertEquals(adler, r.checksum());
        assertEquals(-1, Files.mismatch(nginx.file("/tok-a/tpc/t1"), xrootd.file("/tpc/run7/t1")));

        CopyRequest without = new CopyRequest(URI.create(nginx.url("/tok-a/tpc/t1")), URI.create(xrootd.url("/tpc/run7/t1-none")), 1_000_000L,
                adler, "none", false, 1, URI.create(xrootd.url("/")), true);
        MoverException e = assertThrows(MoverException.class, () -> mover.transfer(without, new SourceStat(1_000_000, true, null),
                TransferProgress.unwatched()));
        assertEquals(MoverException.Code.PERMISSION_DENIED, e.code(), e.getMessage());
        assertFalse(Files.exists(xrootd.file("/tpc/run7/t1-none")));
    }

    @Test
    void aPullCarriesTheSourcesTokenOnlyAsATransferHeaderAndTheDestinationsAsItsOwnAuthorization() {
        assertEquals(java.util.Map.of("Credential", "none"), ThirdPartyCopy.pullCredential(null));
        assertEquals(java.util.Map.of("Credential", "none", "TransferHeaderAuthorization", "Bearer " + SOURCE_TOKEN),
                ThirdPartyCopy.pullCredential(new BearerToken(SOURCE_TOKEN)));
    }

    @Test
    void aSourceReachedWithTheJobsProxyIsAskedForWithCredentialGridsite() throws Exception {
        assertEquals(java.util.Map.of("Credential", "gridsite"), ThirdPartyCopy.pullCredential(TestProxies.of(pki, Duration.ofHours(1))));
    }

    @Test
    void xrootdRefusesCredentialGridsiteBeforeItStartsAndThePullThenGoesAheadWithCredentialNone() throws Exception {
        xrootd.mkdirs("/tpc/run8");
        ClientCertificate proxy = TestProxies.of(pki, Duration.ofHours(3));
        HttpWire wire = new HttpWire(Duration.ofSeconds(10), Duration.ofSeconds(30),
                TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty())).presenting(proxy);
        try (HttpWire.Response r = wire.sendOnce("COPY", URI.create(xrootd.url("/tpc/run8/refused")),
                java.util.Map.of("Source", nginx.url("/se-a/tpc/g0"), "Credential", "gridsite"))) {
            assertEquals(400, r.status, "XRootD's TPC handler takes Credential: none only");
            assertTrue(new String(r.body.readAllBytes()).contains("unsupported Credential type"));
        }
        assertFalse(Files.exists(xrootd.file("/tpc/run8/refused")));

        String adler = HttpMoverTest.write(nginx.file("/se-a/tpc/g1"), 1_500_000, 31);
        CopyRequest req = new CopyRequest(URI.create(nginx.url("/se-a/tpc/g1")), URI.create(xrootd.url("/tpc/run8/g1")), 1_500_000L, adler,
                "both", false, 1, URI.create(xrootd.url("/")), true, null, new StorageCredentials(proxy, proxy));
        CopyResult r = mover.transfer(req, new SourceStat(1_500_000, true, null), TransferProgress.unwatched());
        assertEquals(adler, r.checksum());
        String log = xrootd.log();
        assertTrue(java.util.regex.Pattern.compile("unsupported credential type:\\s+gridsite").matcher(log).find(), "asked with gridsite first: " + log);
        assertTrue(log.contains("event=TRANSFER_SUCCESS, local=/tpc/run8/g1"), log);
    }

    @Test
    void aDestinationThatNamesADelegationServiceGetsTheProxyThereAndTheCopyFollowsItsRedirect() throws Exception {
        xrootd.mkdirs("/tpc/run9");
        // the front reads the SE's files through its own URL (the copy's size and digest are checked there)
        Files.setPosixFilePermissions(xrootd.dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Assumptions.assumeTrue(GridSiteDelegationServer.runsHere(), "skipped: the GridSite front needs root (see GridSiteDelegationServer)");
        try (GridSiteDelegationServer front = new GridSiteDelegationServer(pki, xrootd.url("/"), xrootd.data)) {
            ClientCertificate proxy = TestProxies.of(pki, Duration.ofHours(3));
            String adler = HttpMoverTest.write(nginx.file("/se-a/tpc/d1"), 2_000_000, 32);
            URI destination = URI.create("https://localhost:" + front.port + "/dav/tpc/run9/d1");
            CopyRequest req = new CopyRequest(URI.create(nginx.url("/se-a/tpc/d1")), destination, 2_000_000L, adler, "both", false, 1,
                    URI.create(xrootd.url("/")), true, null, new StorageCredentials(proxy, proxy));
            CopyResult r = mover.transfer(req, new SourceStat(2_000_000, true, null), TransferProgress.unwatched());
            assertEquals(adler, r.checksum());
            assertEquals(-1, Files.mismatch(nginx.file("/se-a/tpc/d1"), xrootd.file("/tpc/run9/d1")), "the redirect's target pulled the file");

            java.util.List<Path> stored = front.storedProxies();
            assertEquals(1, stored.size(), "the proxy was delegated to the service X-Delegate-To named: " + front.log());
            java.util.List<java.security.cert.X509Certificate> chain = GridSiteDelegationTest.certificates(Files.readString(stored.get(0)));
            assertEquals(proxy.chain().get(0), chain.get(1), "a proxy of the job's proxy");
        }
    }

    @Test
    void aDestinationThatStillAsksForAProxyAfterItWasDelegatedFailsTheCopyForGood() throws Exception {
        // the front sends the COPY back to itself: it asks for the proxy once more after it was delegated
        Assumptions.assumeTrue(GridSiteDelegationServer.runsHere(), "skipped: the GridSite front needs root (see GridSiteDelegationServer)");
        try (GridSiteDelegationServer front = new GridSiteDelegationServer(pki, "/dav", xrootd.data)) {
            ClientCertificate proxy = TestProxies.of(pki, Duration.ofHours(3));
            HttpMoverTest.write(nginx.file("/se-a/tpc/d2"), 10_000, 33);
            CopyRequest req = new CopyRequest(URI.create(nginx.url("/se-a/tpc/d2")), URI.create("https://localhost:" + front.port + "/dav/tpc/d2"),
                    10_000L, null, "none", false, 1, URI.create(xrootd.url("/")), true, null, new StorageCredentials(proxy, proxy));
            MoverException e = assertThrows(MoverException.class, () -> mover.transfer(req, new SourceStat(10_000, true, null),
                    TransferProgress.unwatched()));
            assertEquals(MoverException.Code.PERMISSION_DENIED, e.code(), e.getMessage());
            assertFalse(e.retryable());
            assertTrue(e.getMessage().contains("asked for a delegated proxy again"), e.getMessage());
            assertEquals(1, front.storedProxies().size(), "delegated once, not again");
        }
    }

    @Test
    void aSourceTheSeCannotFindFailsForGoodAsSourceNotFound() throws Exception {
        xrootd.mkdirs("/tpc/run3");
        MoverException e = assertThrows(MoverException.class, () -> mover.transfer(pull("/se-a/tpc/nope", "/tpc/run3/nope", null, null, "none", 1),
                new SourceStat(1000, true, null), TransferProgress.unwatched()));
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, e.code());
        assertTrue(e.getMessage().contains("status code 404"), e.getMessage());
        assertFalse(Files.exists(xrootd.file("/tpc/run3/nope")));
    }

    @Test
    void aStoppedCopyEndsAtOnceThoughTheSeReportsOnlyEverySoOften() throws Exception {
        // the source sends 256 KiB/s: 4 MiB take 16 s, and the SE reports progress every few seconds
        HttpMoverTest.write(nginx.file("/slow/tpc/f5"), 4L << 20, 25);
        xrootd.mkdirs("/tpc/run5");
        CopyRequest req = new CopyRequest(URI.create(nginx.url("/slow/tpc/f5")), URI.create(xrootd.url("/tpc/run5/f5")), null, null, "none",
                false, 1, URI.create(xrootd.url("/")), true);
        TransferProgress progress = TransferProgress.unwatched();
        java.util.concurrent.CompletableFuture<MoverException> failure = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                mover.transfer(req, new SourceStat(4L << 20, true, null), progress);
                return null;
            } catch (MoverException e) {
                return e;
            }
        });
        Thread.sleep(1500);
        long stopped = System.nanoTime();
        progress.abort(MoverException.Code.CANCELED, "canceled by the test");
        MoverException e = failure.get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue((System.nanoTime() - stopped) / 1_000_000 < 2000, "the copy ended within two seconds of the cancel");
        assertEquals(MoverException.Code.CANCELED, e.code());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> !Files.exists(xrootd.file("/tpc/run5/f5")));
    }

    @Test
    void aDestinationThatTurnsOutNotToDoThirdPartyCopyGetsTheFileStreamed() throws Exception {
        // nginx answers COPY with 405: the SE was registered wrongly, the copy still happens, through Ferry
        String adler = HttpMoverTest.write(nginx.file("/se-a/tpc/f4"), 2_000_000, 24);
        CopyRequest req = new CopyRequest(URI.create(nginx.url("/se-a/tpc/f4")), URI.create(nginx.url("/se-b/tpc/f4")), null, adler, "both",
                false, 1, URI.create(nginx.url("/se-b")), true);
        CopyResult r = mover.copy(req);
        assertEquals(adler, r.checksum());
        assertEquals(-1, Files.mismatch(nginx.file("/se-a/tpc/f4"), nginx.file("/se-b/tpc/f4")));
    }

    @Test
    void aLabelledCopyCarriesItsSciTagOnTheCopyAndOnTheRequestsOfTheStreamedFallback() throws Exception {
        // nginx as the destination answers the COPY with 405 and logs it: the header FTS3's gfal2 puts on a COPY is there
        String adler = HttpMoverTest.write(nginx.file("/se-a/tpc/s1"), 300_000, 34);
        CopyRequest req = new CopyRequest(URI.create(nginx.url("/se-a/tpc/s1")), URI.create(nginx.url("/se-b/tpc/s1")), 300_000L, adler, "source",
                false, 1, URI.create(nginx.url("/se-b")), true).withSciTag(2 << 6 | 9).withArchiveMetadata("{\"family\":\"raw\"}");
        assertEquals(adler, mover.copy(req).checksum());
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertEquals(
                java.util.List.of("COPY /se-b/tpc/s1 scitag=137", "GET /se-a/tpc/s1 scitag=137", "PUT /se-b/tpc/s1 scitag=137"),
                copyRequests("/tpc/s1 ")));
        // FTS3's archive metadata, base64 as gfal2 sends it, on the requests that write the destination only
        String archive = java.util.Base64.getEncoder().encodeToString("{\"family\":\"raw\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(java.util.List.of("COPY /se-b/tpc/s1 archive=" + archive, "GET /se-a/tpc/s1 archive=-", "PUT /se-b/tpc/s1 archive=" + archive),
                nginx.archiveMetadataRequests().stream().filter(l -> l.contains("/tpc/s1 ") && l.matches("(COPY|GET|PUT) .*")).toList());

        HttpMoverTest.write(nginx.file("/se-a/tpc/s2"), 1000, 35);
        mover.copy(new CopyRequest(URI.create(nginx.url("/se-a/tpc/s2")), URI.create(nginx.url("/se-b/tpc/s2")), 1000L, null, "none",
                false, 1, URI.create(nginx.url("/se-b")), true));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertEquals(
                java.util.List.of("COPY /se-b/tpc/s2 scitag=-", "GET /se-a/tpc/s2 scitag=-", "PUT /se-b/tpc/s2 scitag=-"),
                copyRequests("/tpc/s2 "), "an unlabelled copy sends no SciTag"));
    }

    /** The COPY, GET and PUT requests nginx served for {@code path} (the HEAD and MKCOL before them carry no label). */
    private static java.util.List<String> copyRequests(String path) throws java.io.IOException {
        return nginx.requests().stream().filter(l -> l.contains(path) && l.matches("(COPY|GET|PUT) .*")).toList();
    }

    @Test
    void aPullRefusedByTheDestinationLeavesItsExistingFileAlone() throws Exception {
        // the destination exists and the job does not overwrite: the SE is told so, refuses, and nothing is removed
        HttpMoverTest.write(nginx.file("/se-a/tpc/f6"), 100_000, 26);
        HttpMoverTest.write(xrootd.file("/tpc/run6/f6"), 50_000, 27);
        byte[] before = Files.readAllBytes(xrootd.file("/tpc/run6/f6"));
        MoverException e = assertThrows(MoverException.class, () -> mover.transfer(pull("/se-a/tpc/f6", "/tpc/run6/f6", null, null, "none", 1),
                new SourceStat(100_000, true, null), TransferProgress.unwatched()));
        assertFalse(e.retryable(), e.code() + ": " + e.getMessage());
        org.junit.jupiter.api.Assertions.assertArrayEquals(before, Files.readAllBytes(xrootd.file("/tpc/run6/f6")));
    }

    @Test
    void aCopyTheDestinationRefusesIsNeverFollowedByADelete() throws Exception {
        // an SE that refuses the pull (the file exists, or the SE says no): its existing file is not this attempt's
        java.util.List<String> requests = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int refusal : new int[]{412, 403}) {
            requests.clear();
            com.sun.net.httpserver.HttpServer se = com.sun.net.httpserver.HttpServer.create(
                    new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
            se.createContext("/", exchange -> {
                requests.add(exchange.getRequestMethod() + " Overwrite=" + exchange.getRequestHeaders().getFirst("Overwrite"));
                exchange.getRequestBody().readAllBytes();
                exchange.sendResponseHeaders(exchange.getRequestMethod().equals("COPY") ? refusal : 204, -1);
                exchange.close();
            });
            se.start();
            try {
                String base = "http://127.0.0.1:" + se.getAddress().getPort() + "/store";
                CopyRequest req = new CopyRequest(URI.create(nginx.url("/se-a/tpc/f6")), URI.create(base + "/run7/f7"), null, null, "none", false, 1,
                        URI.create(base), true);
                MoverException e = assertThrows(MoverException.class, () -> mover.transfer(req, new SourceStat(100_000, true, null),
                        TransferProgress.unwatched()));
                assertEquals(refusal == 412 ? MoverException.Code.DEST_EXISTS : MoverException.Code.PERMISSION_DENIED, e.code(), e.getMessage());
                assertEquals(java.util.List.of("COPY Overwrite=F"), requests, "the SE was asked not to overwrite, and nothing was deleted");
            } finally {
                se.stop(0);
            }
        }
    }
}
