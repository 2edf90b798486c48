package io.ferry.movers;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * S3 to WebDAV against real servers: XRootD's HTTP third-party copy pulls an s3proxy object from the pre-signed URL
 * Ferry hands it (no byte through Ferry, no key to the puller), and the failure of a pull names the object, never
 * the signature.
 */
class S3ToWebDavMoverTest {

    static final S3Keys KEYS = XrootdAndS3Proxy.KEYS;
    static XrootdAndS3Proxy servers;
    static S3ToWebDavMover mover;

    @BeforeAll
    static void start() throws Exception {
        servers = XrootdAndS3Proxy.start();
        mover = new S3ToWebDavMover(new S3Access(Duration.ofSeconds(60)), new HttpMover(Duration.ofSeconds(60), 64L << 20, servers.tls));
    }

    @AfterAll
    static void stop() throws Exception {
        if (servers != null) {
            servers.close();
        }
    }

    private static CopyRequest request(String key, String dst, Long size, String adler, boolean thirdParty) {
        return new CopyRequest(URI.create(servers.s3.url("/bkt/" + key)), URI.create(servers.xrootd.url(dst)), size, adler, "both", false, 1,
                URI.create(servers.xrootd.url("/")), thirdParty, URI.create(servers.s3.url("/bkt")), new StorageCredentials(KEYS, null));
    }

    @Test
    void theWebDavSePullsTheObjectFromAPresignedUrl() throws Exception {
        long size = (12L << 20) + 3;
        String adler = HttpMoverTest.write(servers.s3.bucket("bkt").resolve("run/f1"), size, 31);
        CopyResult r = mover.copy(request("run/f1", "/from-s3/f1", size, adler, true));
        assertEquals(size, r.bytes());
        assertEquals(adler, r.checksum());
        assertEquals(-1, Files.mismatch(servers.s3.bucket("bkt").resolve("run/f1"), servers.xrootd.file("/from-s3/f1")));
        String log = servers.xrootd.log();
        assertTrue(log.contains("event=TRANSFER_SUCCESS, local=/from-s3/f1, remote=http://127.0.0.1:" + servers.s3.port + "/bkt/run/f1?"), log);
        assertTrue(log.contains("X-Amz-Signature="), "the pull went to a pre-signed URL: " + log);
    }

    @Test
    void withoutThirdPartyCopyTheObjectStreamsThroughFerry() throws Exception {
        String adler = HttpMoverTest.write(servers.s3.bucket("bkt").resolve("run/f2"), 2_000_000, 32);
        mover.copy(request("run/f2", "/from-s3/f2", 2_000_000L, adler, false));
        assertEquals(-1, Files.mismatch(servers.s3.bucket("bkt").resolve("run/f2"), servers.xrootd.file("/from-s3/f2")));
        assertFalse(servers.xrootd.log().contains("local=/from-s3/f2"), "no pull: " + servers.xrootd.log());
    }

    @Test
    void aFailedPullNamesTheObjectNotItsSignature() throws Exception {
        // gone between the prepare phase and the pull
        CopyRequest req = request("run/none", "/from-s3/none", null, null, true);
        mover.prepareDestination(req);
        MoverException e = assertThrows(MoverException.class, () -> mover.transfer(req, new SourceStat(10, true, null), TransferProgress.unwatched()));
        assertTrue(e.getMessage().contains(servers.s3.url("/bkt/run/none") + " (pre-signed)"), e.getMessage());
        assertFalse(e.getMessage().contains("X-Amz-Signature"), e.getMessage());
        assertFalse(Files.exists(servers.xrootd.file("/from-s3/none")));
    }
}
