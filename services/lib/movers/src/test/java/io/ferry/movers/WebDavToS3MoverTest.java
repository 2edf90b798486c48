package io.ferry.movers;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WebDAV to S3 against real servers: XRootD's HTTP third-party copy pushes a file to the pre-signed PUT URL Ferry
 * hands it (no byte through Ferry, no key to the pusher), Ferry checks the object with its keys, and a failed push
 * names the object, never the signature, and leaves no object behind.
 */
class WebDavToS3MoverTest {

    static final S3Keys KEYS = XrootdAndS3Proxy.KEYS;
    static XrootdAndS3Proxy servers;
    static S3Access s3Access;
    static WebDavToS3Mover mover;

    @BeforeAll
    static void start() throws Exception {
        servers = XrootdAndS3Proxy.start();
        s3Access = new S3Access(Duration.ofSeconds(60));
        mover = new WebDavToS3Mover(s3Access, new HttpMover(Duration.ofSeconds(60), 64L << 20, servers.tls));
    }

    @AfterAll
    static void stop() throws Exception {
        if (servers != null) {
            servers.close();
        }
    }

    private static CopyRequest request(String src, String key, Long size, String sum, ChecksumAlgorithm algorithm, boolean thirdParty) {
        return new CopyRequest(URI.create(servers.xrootd.url(src)), URI.create(servers.s3.url("/bkt/" + key)), size, sum, "both", false, 1,
                URI.create(servers.s3.url("/bkt")), thirdParty, URI.create(servers.xrootd.url("/")), new StorageCredentials(null, KEYS), algorithm);
    }

    /** The object's MD5 as S3 serves it, read with Ferry's keys. */
    private static String md5Through(String key) throws Exception {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        try (ReadableByteChannel in = s3Access.read(URI.create(servers.s3.url("/bkt/" + key)), KEYS, "test")) {
            while (in.read(buf) >= 0) {
                buf.flip();
                md5.update(buf);
                buf.clear();
            }
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    private static boolean objectExists(String key) throws MoverException {
        return s3Access.exists(URI.create(servers.s3.url("/bkt/" + key)), KEYS, "test");
    }

    @Test
    void theWebDavSePushesTheFileToAPresignedUrl() throws Exception {
        long size = (12L << 20) + 3;
        String adler = HttpMoverTest.write(servers.xrootd.file("/to-s3/f1"), size, 41);
        CopyResult r = mover.copy(request("/to-s3/f1", "run/f1", size, adler, ChecksumAlgorithm.ADLER32, true));
        assertEquals(size, r.bytes());
        assertEquals(adler, r.checksum());
        assertEquals(Md5CopyTest.md5(servers.xrootd.file("/to-s3/f1")), md5Through("run/f1"));
        String log = servers.xrootd.log();
        assertTrue(log.contains("event=PUSH_START, local=/to-s3/f1, remote=http://127.0.0.1:" + servers.s3.port + "/bkt/run/f1?"), log);
        assertTrue(log.contains("event=TRANSFER_SUCCESS, local=/to-s3/f1"), log);
        assertTrue(log.contains("X-Amz-Signature="), "the push went to a pre-signed URL: " + log);
    }

    @Test
    void aSmallMd5FileIsCheckedByItsETag() throws Exception {
        HttpMoverTest.write(servers.xrootd.file("/to-s3/small"), 70_000, 42);
        String md5 = Md5CopyTest.md5(servers.xrootd.file("/to-s3/small"));
        CopyResult r = mover.copy(request("/to-s3/small", "run/small", 70_000L, md5, ChecksumAlgorithm.MD5, true));
        assertEquals(md5, r.checksum());
        assertEquals(md5, md5Through("run/small"));
        assertTrue(servers.xrootd.log().contains("event=PUSH_START, local=/to-s3/small"), servers.xrootd.log());
    }

    @Test
    void withoutThirdPartyCopyTheFileStreamsThroughFerry() throws Exception {
        String adler = HttpMoverTest.write(servers.xrootd.file("/to-s3/f2"), 2_000_000, 43);
        mover.copy(request("/to-s3/f2", "run/f2", 2_000_000L, adler, ChecksumAlgorithm.ADLER32, false));
        assertEquals(Md5CopyTest.md5(servers.xrootd.file("/to-s3/f2")), md5Through("run/f2"));
        assertFalse(servers.xrootd.log().contains("local=/to-s3/f2"), "no push: " + servers.xrootd.log());
    }

    @Test
    void aFailedPushNamesTheObjectNotItsSignatureAndLeavesNoObject() throws Exception {
        // gone between the prepare phase and the push
        CopyRequest req = request("/to-s3/none", "run/none", null, null, ChecksumAlgorithm.ADLER32, true);
        mover.prepareDestination(req);
        MoverException e = assertThrows(MoverException.class, () -> mover.transfer(req, new SourceStat(10, true, null), TransferProgress.unwatched()));
        assertTrue(e.getMessage().contains("source " + servers.xrootd.url("/to-s3/none")), e.getMessage());
        assertFalse(e.getMessage().contains("X-Amz-Signature"), e.getMessage());
        assertFalse(objectExists("run/none"));
    }

    @Test
    void aPushS3RefusesIsReportedByTheSesFailureLineWithoutTheSignature() throws Exception {
        HttpMoverTest.write(servers.xrootd.file("/to-s3/f4"), 100_000, 45);
        CopyRequest req = new CopyRequest(URI.create(servers.xrootd.url("/to-s3/f4")), URI.create(servers.s3.url("/no-such-bucket/f4")), 100_000L,
                null, "none", false, 1, URI.create(servers.s3.url("/no-such-bucket")), true, URI.create(servers.xrootd.url("/")),
                new StorageCredentials(null, KEYS));
        MoverException e = assertThrows(MoverException.class, () -> mover.transfer(req, new SourceStat(100_000, true, null), TransferProgress.unwatched()));
        // the SE took the COPY on and reported S3's 404 in its markers' last line: the bucket's, not a missing source
        assertEquals(MoverException.Code.HTTP_ERROR, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains("third-party copy to " + servers.s3.url("/no-such-bucket/f4") + " (pre-signed) failed"), e.getMessage());
        assertTrue(e.getMessage().contains("status code 404"), e.getMessage());
        assertFalse(e.getMessage().contains("X-Amz-"), e.getMessage());
    }

    @Test
    void aPushedObjectThatFailsItsCheckIsRemoved() throws Exception {
        HttpMoverTest.write(servers.xrootd.file("/to-s3/f3"), 300_000, 44);
        CopyRequest req = request("/to-s3/f3", "run/f3", 300_000L, "0badc0de", ChecksumAlgorithm.ADLER32, true);
        mover.prepareDestination(req);
        // the transfer phase has no checksum of the source's: the job's is checked against what arrived
        MoverException e = assertThrows(MoverException.class, () -> mover.transfer(req, new SourceStat(300_000, true, null), TransferProgress.unwatched()));
        assertEquals(MoverException.Code.CHECKSUM_MISMATCH, e.code());
        assertTrue(servers.xrootd.log().contains("event=TRANSFER_SUCCESS, local=/to-s3/f3"), "pushed, then refused: " + servers.xrootd.log());
        assertFalse(objectExists("run/f3"));
        assertFalse(e.getMessage().contains("X-Amz-Signature"), e.getMessage());
    }

    @Test
    void onlyWhatFitsOneSignedPutIsPushed() {
        assertTrue(WebDavToS3Mover.fitsOnePut(0));
        assertTrue(WebDavToS3Mover.fitsOnePut(5L << 30));
        assertFalse(WebDavToS3Mover.fitsOnePut((5L << 30) + 1));
        assertFalse(WebDavToS3Mover.fitsOnePut(-1), "a size not known streams");
    }
}
