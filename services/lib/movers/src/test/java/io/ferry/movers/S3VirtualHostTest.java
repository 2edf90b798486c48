package io.ferry.movers;

import io.ferry.dev.S3Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocketFactory;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link S3Access} in virtual-host style against s3proxy told of its domain ({@value #DOMAIN}). The test JVM resolves
 * {@code ferry-bucket.s3.ferry.test} to 127.0.0.1 through src/test/resources/hosts (surefire's argLine), and not
 * {@value #DOMAIN} itself; s3proxy files each request under the bucket its Host header names, and its request log shows
 * the Host each request carried.
 */
class S3VirtualHostTest {

    private static final String DOMAIN = "s3.ferry.test";
    private static final String BUCKET = "ferry-bucket";
    private static final int PART = S3Access.MIN_PART_SIZE;
    private static final S3Keys VIRTUAL_HOST = new S3Keys(S3Server.IDENTITY, S3Server.CREDENTIAL, null, true);

    private static S3Server server;
    private static S3Access access;

    @BeforeAll
    static void start() throws Exception {
        server = S3Server.virtualHost(DOMAIN, BUCKET);
        access = new S3Access(Duration.ofSeconds(30), StorageTls.of((SSLSocketFactory) SSLSocketFactory.getDefault()), PART, 2, 32L << 20);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static URI url(String key) {
        return URI.create(server.virtualHostUrl("/" + BUCKET + "/" + key));
    }

    /** The requests the server saw for {@code key}, whatever host or path they named it by. */
    private static List<String> requestsFor(String key) throws Exception {
        return server.requestLines().stream().filter(line -> line.contains(key)).toList();
    }

    @Test
    void writesStatsReadsAndDeletesInVirtualHostStyle() throws Exception {
        String key = "virtual/single.dat";
        URI url = url(key);
        byte[] data = S3Objects.random(200_000, 21);
        S3Objects.write(access, url, VIRTUAL_HOST, data, data.length, 30_000);

        assertArrayEquals(data, Files.readAllBytes(server.bucket(BUCKET).resolve(key)), "stored under the bucket the Host header named");
        assertEquals(data.length, access.stat(url, ChecksumAlgorithm.MD5, VIRTUAL_HOST, "prepare").size());
        assertArrayEquals(data, S3Objects.read(access, url, VIRTUAL_HOST));
        access.delete(url, VIRTUAL_HOST, "transfer");
        assertFalse(access.exists(url, VIRTUAL_HOST, "prepare"));
        assertFalse(Files.exists(server.bucket(BUCKET).resolve(key)));

        String origin = "http://" + BUCKET + "." + DOMAIN + ":" + server.port + "/" + key;
        assertEquals(List.of("PUT " + origin, "HEAD " + origin, "GET " + origin, "DELETE " + origin, "HEAD " + origin), requestsFor(key),
                "every request named the bucket in the Host header and only the key in the path");
    }

    @Test
    void sendsAMultipartUploadInVirtualHostStyle() throws Exception {
        String key = "virtual/multipart.dat";
        URI url = url(key);
        byte[] data = S3Objects.random(2 * PART + 4321, 22);
        S3Objects.write(access, url, VIRTUAL_HOST, data, data.length, 1 << 20);

        assertArrayEquals(data, S3Objects.read(access, url, VIRTUAL_HOST));
        List<String> requests = requestsFor(key);
        String origin = "http://" + BUCKET + "." + DOMAIN + ":" + server.port + "/" + key;
        assertTrue(requests.contains("POST " + origin + "?uploads="), requests.toString());
        assertEquals(3, requests.stream().filter(r -> r.startsWith("PUT " + origin + "?") && r.contains("partNumber=")).count(), requests.toString());
        assertTrue(requests.stream().anyMatch(r -> r.startsWith("POST " + origin + "?uploadId=")), requests.toString());
        assertTrue(requests.stream().allMatch(r -> r.contains(" " + origin)), "no request named the bucket in its path: " + requests);
        access.delete(url, VIRTUAL_HOST, "transfer");
    }

    @Test
    void pathStyleKeysCannotReachTheBucketOnlyItsOwnHostNameResolves() {
        S3Keys pathStyle = new S3Keys(S3Server.IDENTITY, S3Server.CREDENTIAL);
        MoverException e = assertThrows(MoverException.class, () -> access.stat(url("virtual/anything.dat"), null, pathStyle, "prepare"));
        assertTrue(e.getMessage().contains("UnknownHostException"), e.getMessage());
    }
}
