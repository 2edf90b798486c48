package io.ferry.movers;

import io.ferry.dev.FreePort;
import io.ferry.dev.S3Server;
import io.ferry.dev.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.zip.Adler32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link S3Access} against a real S3 server (s3proxy on its filesystem backend, its own JVM). */
class S3AccessTest {

    private static final String BUCKET = "ferry-bucket";
    private static final int PART = S3Access.MIN_PART_SIZE;
    private static final int IN_FLIGHT = 3;
    private static final long PART_MEMORY = 64L << 20;
    private static final int SPARE_BUFFERS = (int) (PART_MEMORY / PART);

    @TempDir
    static Path pkiDir;
    private static TestCertificates pki;
    private static S3Server server;
    private static S3Access access;
    /** An access with no spare part memory: its uploads send their parts one at a time. */
    private static S3Access sequential;
    private static S3Requests requests;
    private static final S3Keys KEYS = new S3Keys(S3Server.IDENTITY, S3Server.CREDENTIAL);

    @BeforeAll
    static void start() throws Exception {
        pki = TestCertificates.create(pkiDir);
        server = new S3Server(pki, BUCKET);
        StorageTls tls = TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty());
        HttpWire wire = new HttpWire(Duration.ofSeconds(5), Duration.ofSeconds(30), tls);
        access = new S3Access(wire, Clock.systemUTC(), PART, IN_FLIGHT, PART_MEMORY);
        sequential = new S3Access(wire, Clock.systemUTC(), PART, IN_FLIGHT, 0);
        requests = new S3Requests(wire, Clock.systemUTC());
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static URI url(String key) {
        return URI.create(server.url("/" + BUCKET + "/" + key));
    }

    private static byte[] random(int size, long seed) {
        return S3Objects.random(size, seed);
    }

    private static void write(URI url, byte[] data, long announced, int chunk) throws Exception {
        S3Objects.write(access, url, KEYS, data, announced, chunk);
    }

    private static byte[] read(URI url, StorageCredential credential) throws Exception {
        return S3Objects.read(access, url, credential);
    }

    private static String md5(byte[] data) {
        return HexFormat.of().formatHex(S3MultipartUpload.md5(data, data.length));
    }

    private static String adler32(byte[] data) {
        Adler32 a = new Adler32();
        a.update(data);
        return String.format("%08x", a.getValue());
    }

    @Test
    void writesStatsReadsAndDeletesAnObject() throws Exception {
        URI url = url("round/trip.dat");
        byte[] data = random(300_000, 1);
        write(url, data, data.length, 40_000);

        SourceStat md5 = access.stat(url, ChecksumAlgorithm.MD5, KEYS, "prepare");
        assertEquals(data.length, md5.size());
        assertTrue(md5.ranges());
        assertEquals(md5(data), md5.checksum());
        assertTrue(md5.mtime() != null && Math.abs(Duration.between(md5.mtime(), Instant.now()).toMinutes()) < 5,
                "Last-Modified of an object just written: " + md5.mtime());
        assertEquals(adler32(data), access.stat(url, ChecksumAlgorithm.ADLER32, KEYS, "prepare").checksum(),
                "the ADLER32 stored as x-amz-meta-adler32 at upload");
        assertTrue(access.exists(url, KEYS, "prepare"));
        assertArrayEquals(data, read(url, KEYS));

        access.delete(url, KEYS, "transfer");
        assertFalse(access.exists(url, KEYS, "prepare"));
        access.delete(url, KEYS, "transfer");  // gone already: no failure
    }

    @Test
    void writesAnObjectOfUnknownSizeAndReplacesAnExistingOne() throws Exception {
        URI url = url("unknown-size.dat");
        write(url, random(1000, 2), -1, 100);
        byte[] data = random(700_000, 3);
        write(url, data, -1, 50_000);
        assertArrayEquals(data, read(url, KEYS));
        assertEquals(data.length, access.stat(url, null, KEYS, "prepare").size());
    }

    @Test
    void sendsAnObjectLargerThanAPartAsAMultipartUploadWithTheETagChecked() throws Exception {
        URI url = url("multi/part.dat");
        byte[] data = random(4 * PART + 123_457, 4);
        write(url, data, data.length, 1 << 20);

        assertArrayEquals(data, read(url, KEYS));
        try (HttpWire.Response head = requests.send("HEAD", S3ObjectUrl.parse(url, "test"), Map.of(), Map.of(), KEYS)) {
            String etag = S3Access.unquote(head.header("etag"));
            assertTrue(etag.endsWith("-5"), "five parts: " + etag);
        }
        assertNull(access.stat(url, ChecksumAlgorithm.MD5, KEYS, "prepare").checksum(), "a multipart ETag is no MD5 of the object");
        assertEquals(SPARE_BUFFERS, access.freePartBuffers(), "the upload gave its spare part buffers back");
        assertEquals(data.length, access.stat(url, null, KEYS, "prepare").size());
        assertNoPendingUploads();
    }

    @Test
    void withoutSparePartMemoryPartsAreSentOneAfterTheOther() throws Exception {
        URI url = url("multi/sequential.dat");
        byte[] data = random(3 * PART + 5, 14);
        try (StorageAccess.Upload up = sequential.write(url, -1, KEYS, "transfer")) {
            for (int at = 0; at < data.length; at += 1 << 20) {
                up.write(ByteBuffer.wrap(data, at, Math.min(1 << 20, data.length - at)));
            }
            up.commit();
        }
        assertArrayEquals(data, read(url, KEYS));
        assertNoPendingUploads();
    }

    @Test
    void writesAnEmptyObject() throws Exception {
        for (long announced : new long[] {0, -1}) {
            URI url = url("empty-" + announced + ".dat");
            write(url, new byte[0], announced, 1);
            SourceStat stat = access.stat(url, ChecksumAlgorithm.ADLER32, KEYS, "prepare");
            assertEquals(0, stat.size());
            assertEquals("00000001", stat.checksum());
            assertArrayEquals(new byte[0], read(url, KEYS));
        }
    }

    @Test
    void anObjectOfExactlyOnePartIsASinglePut() throws Exception {
        URI url = url("one-part.dat");
        byte[] data = random(PART, 5);
        write(url, data, -1, 1 << 20);
        assertEquals(md5(data), access.stat(url, ChecksumAlgorithm.MD5, KEYS, "prepare").checksum());
    }

    @Test
    void anUploadClosedWithoutCommitLeavesNoObjectAndNoPendingUpload() throws Exception {
        URI url = url("abandoned.dat");
        byte[] data = random(3 * PART, 6);
        StorageAccess.Upload up = access.write(url, 10L * PART, KEYS, "transfer");
        up.write(ByteBuffer.wrap(data));  // two full parts sent, the third one buffered
        up.close();
        assertFalse(up.isOpen());
        assertEquals(SPARE_BUFFERS, access.freePartBuffers(), "the upload gave its spare part buffers back");
        assertFalse(access.exists(url, KEYS, "prepare"));
        assertNoPendingUploads();
    }

    @Test
    void anUploadShorterThanAnnouncedIsRefusedAndLeavesNothing() throws Exception {
        URI url = url("short.dat");
        StorageAccess.Upload up = access.write(url, 3L * PART, KEYS, "transfer");
        up.write(ByteBuffer.wrap(random(2 * PART + 1, 7)));
        MoverException e = assertThrows(MoverException.class, up::commit);
        assertEquals(MoverException.Code.SIZE_MISMATCH, e.code());
        assertFalse(access.exists(url, KEYS, "prepare"));
        assertNoPendingUploads();
    }

    /** ListMultipartUploads on the bucket names no upload. */
    private static void assertNoPendingUploads() throws Exception {
        S3ObjectUrl bucket = new S3ObjectUrl(false, "127.0.0.1", server.port, BUCKET, "");
        try (HttpWire.Response list = requests.send("GET", bucket, Map.of("uploads", ""), Map.of(), KEYS)) {
            String body = S3Errors.text(list);
            assertEquals(200, list.status, body);
            assertFalse(body.contains("<Upload>"), body);
        }
    }

    @Test
    void aWrongSecretOrAnUnknownKeyIsRefused() throws Exception {
        URI url = url("guarded.dat");
        write(url, random(1000, 8), 1000, 1000);
        S3Keys wrongSecret = new S3Keys(S3Server.IDENTITY, "not-the-secret");
        S3Keys unknown = new S3Keys("someone-else", S3Server.CREDENTIAL);
        for (S3Keys keys : new S3Keys[] {wrongSecret, unknown}) {
            MoverException stat = assertThrows(MoverException.class, () -> access.stat(url, ChecksumAlgorithm.MD5, keys, "prepare"));
            assertEquals(MoverException.Code.PERMISSION_DENIED, stat.code(), stat.getMessage());
            MoverException get = assertThrows(MoverException.class, () -> access.read(url, keys, "transfer"));
            assertEquals(MoverException.Code.PERMISSION_DENIED, get.code(), get.getMessage());
            assertTrue(get.getMessage().contains("SignatureDoesNotMatch") || get.getMessage().contains("InvalidAccessKeyId"), get.getMessage());
            StorageAccess.Upload up = access.write(url, 10, keys, "transfer");
            up.write(ByteBuffer.wrap(new byte[10]));
            MoverException put = assertThrows(MoverException.class, up::commit);
            assertEquals(MoverException.Code.PERMISSION_DENIED, put.code(), put.getMessage());
        }
        assertEquals(1000, access.stat(url, null, KEYS, "prepare").size(), "the refused writes left the object alone");
    }

    @Test
    void anonymousRequestsAndBearerTokensAreNotLetIn() throws Exception {
        URI url = url("private.dat");
        write(url, random(100, 13), 100, 100);
        MoverException anonymous = assertThrows(MoverException.class, () -> access.stat(url, ChecksumAlgorithm.MD5, null, "prepare"));
        assertEquals(MoverException.Code.PERMISSION_DENIED, anonymous.code(), anonymous.getMessage());
        MoverException bearer = assertThrows(MoverException.class, () -> access.read(url, new BearerToken("abc.def.ghi"), "transfer"));
        assertEquals(MoverException.Code.PERMISSION_DENIED, bearer.code(), bearer.getMessage());
    }

    @Test
    void aMissingObjectOrBucketIsSourceNotFound() {
        MoverException stat = assertThrows(MoverException.class, () -> access.stat(url("no/such.dat"), null, KEYS, "prepare"));
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, stat.code());
        MoverException get = assertThrows(MoverException.class, () -> access.read(url("no/such.dat"), KEYS, "transfer"));
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, get.code());
        assertTrue(get.getMessage().contains("NoSuchKey"), get.getMessage());
        MoverException bucket = assertThrows(MoverException.class,
                () -> access.read(URI.create(server.url("/no-such-bucket/x")), KEYS, "transfer"));
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, bucket.code());
        assertTrue(bucket.getMessage().contains("NoSuchBucket"), bucket.getMessage());
    }

    @Test
    void keysWithSpacesAndUnicodeAreStoredUnderTheirDecodedName() throws Exception {
        URI url = url("dir%20one/a%20b%20%C3%A9%E2%82%AC%2B+(1)!.dat");
        byte[] data = random(5000, 9);
        write(url, data, data.length, 1000);
        assertTrue(Files.exists(server.bucket(BUCKET).resolve("dir one/a b \u00e9\u20ac++(1)!.dat")));
        assertArrayEquals(data, read(url, KEYS));
        assertEquals(md5(data), access.stat(url, ChecksumAlgorithm.MD5, KEYS, "prepare").checksum());
        access.delete(url, KEYS, "transfer");
        assertFalse(access.exists(url, KEYS, "prepare"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"/b-u-c/a/../x", "/b-u-c/a/%2e%2E/x", "/b-u-c/./x", "/b-u-c/a%2Fb", "/b-u-c/a%5Cb", "/b-u-c/a;x=1",
            "/b-u-c/%00", "/b-u-c/", "/b-u-c", "/b/x", "/b-u-c/a%C3%A9%252e"})
    void refusesUrlsThatCouldMeanAnotherObjectBeforeAnyRequest(String path) {
        // nothing listens there: a request would fail with CONNECTION_RESET, not UNSUPPORTED_URL
        URI url = URI.create("s3://127.0.0.1:" + FreePort.find() + path);
        for (var call : java.util.List.<org.junit.jupiter.api.function.Executable>of(
                () -> access.stat(url, null, KEYS, "prepare"), () -> access.read(url, KEYS, "transfer"),
                () -> access.write(url, 1, KEYS, "transfer"), () -> access.delete(url, KEYS, "transfer"),
                () -> access.exists(url, KEYS, "prepare"))) {
            MoverException e = assertThrows(MoverException.class, call);
            assertEquals(MoverException.Code.UNSUPPORTED_URL, e.code(), e.getMessage());
        }
    }

    @Test
    void aPresignedGetServesTheObjectUntilItExpiresAndNotWhenTampered() throws Exception {
        URI url = url("presigned/get%20me.dat");
        byte[] data = random(10_000, 10);
        write(url, data, data.length, 10_000);
        HttpClient http = HttpClient.newHttpClient();

        URI presigned = access.presign(url, "GET", Duration.ofMinutes(5), KEYS);
        assertTrue(presigned.getRawQuery().contains("X-Amz-Signature="));
        HttpResponse<byte[]> ok = http.send(HttpRequest.newBuilder(presigned).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, ok.statusCode());
        assertArrayEquals(data, ok.body());

        URI expired = access.presign(url, "GET", Duration.ofMinutes(1), KEYS, Instant.now().minus(Duration.ofHours(1)));
        assertEquals(403, http.send(HttpRequest.newBuilder(expired).build(), HttpResponse.BodyHandlers.discarding()).statusCode());

        URI otherObject = URI.create(presigned.toString().replace("get%20me.dat", "get%20you.dat"));
        assertEquals(403, http.send(HttpRequest.newBuilder(otherObject).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
        String signature = presigned.getRawQuery().replaceAll(".*X-Amz-Signature=", "");
        String flipped = (signature.charAt(0) == '0' ? "1" : "0") + signature.substring(1);
        URI tampered = URI.create(presigned.toString().replace(signature, flipped));
        assertEquals(403, http.send(HttpRequest.newBuilder(tampered).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
        URI longer = URI.create(presigned.toString().replace("X-Amz-Expires=300", "X-Amz-Expires=600000"));
        assertEquals(403, http.send(HttpRequest.newBuilder(longer).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
    }

    @Test
    void aPresignedPutStoresTheObject() throws Exception {
        URI url = url("presigned/put.dat");
        byte[] data = random(20_000, 11);
        URI presigned = access.presign(url, "PUT", Duration.ofMinutes(5), KEYS);
        HttpResponse<String> put = HttpClient.newHttpClient().send(HttpRequest.newBuilder(presigned)
                .PUT(HttpRequest.BodyPublishers.ofByteArray(data)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, put.statusCode(), put.body());
        assertArrayEquals(data, read(url, KEYS));
        // a GET signature does not let its holder write
        URI get = access.presign(url, "GET", Duration.ofMinutes(5), KEYS);
        assertEquals(403, HttpClient.newHttpClient().send(HttpRequest.newBuilder(get).PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[1])).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode());
        assertArrayEquals(data, read(url, KEYS));
    }

    @Test
    void s3sSpeaksHttpsToTheStore() throws Exception {
        URI url = URI.create(server.tlsUrl("/" + BUCKET + "/tls/object.dat"));
        byte[] data = random(2 * PART + 99, 12);
        write(url, data, data.length, 1 << 20);
        assertArrayEquals(data, read(url, KEYS));
        URI presigned = access.presign(url, "GET", Duration.ofMinutes(5), KEYS);
        assertEquals("https", presigned.getScheme());
        access.delete(url, KEYS, "transfer");
        assertFalse(access.exists(url, KEYS, "prepare"));
    }

    @Test
    void presignsOnlyGetAndPut() {
        assertThrows(IllegalArgumentException.class, () -> access.presign(url("x"), "DELETE", Duration.ofMinutes(1), KEYS));
    }
}
