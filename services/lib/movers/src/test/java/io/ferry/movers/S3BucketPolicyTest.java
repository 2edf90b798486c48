package io.ferry.movers;

import io.ferry.dev.RadosGateway;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSocketFactory;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two VOs' keys at one S3 SE whose bucket policy lets the second read below {@code shared/} and write nowhere: Ceph
 * RadosGW ({@link RadosGateway}), the bucket made and its policy put with Ferry's own signed requests.
 */
class S3BucketPolicyTest {

    private static final String BUCKET = "atlas-data";
    private static final int PART = S3Access.MIN_PART_SIZE;
    /** Refused by the server, not by Ferry: S3's code and the HTTP status stay in the reason. */
    private static final String REFUSAL = "answered HTTP 403 AccessDenied";

    private static RadosGateway gateway;
    private static S3Keys atlas;
    private static S3Keys cms;
    private static S3Requests requests;
    private static S3Access access;

    @BeforeAll
    static void start() throws Exception {
        gateway = new RadosGateway("atlas", "cms");
        atlas = keys(gateway.account("atlas"));
        cms = keys(gateway.account("cms"));
        HttpWire wire = new HttpWire(Duration.ofSeconds(5), Duration.ofSeconds(30), StorageTls.of((SSLSocketFactory) SSLSocketFactory.getDefault()));
        requests = new S3Requests(wire, Clock.systemUTC());
        access = new S3Access(wire, Clock.systemUTC(), PART, 2, 32L << 20);

        S3ObjectUrl bucket = new S3ObjectUrl(false, "127.0.0.1", gateway.port, BUCKET, "");
        try (HttpWire.Response create = requests.send("PUT", bucket, Map.of(), Map.of(), atlas)) {
            S3Errors.check(create, "test", "CreateBucket");
        }
        String cmsUser = RadosGateway.principal("cms");
        byte[] policy = ("""
                {"Version": "2012-10-17", "Statement": [
                  {"Effect": "Allow", "Principal": {"AWS": ["%1$s"]}, "Action": ["s3:GetObject"], "Resource": ["arn:aws:s3:::%2$s/shared/*"]},
                  {"Effect": "Deny", "Principal": {"AWS": ["%1$s"]}, "Action": ["s3:PutObject", "s3:DeleteObject"], "Resource": ["arn:aws:s3:::%2$s/*"]}
                ]}""").formatted(cmsUser, BUCKET).getBytes(StandardCharsets.UTF_8);
        try (HttpWire.Response put = requests.send("PUT", bucket, Map.of("policy", ""), Map.of(), atlas,
                sink -> sink.write(ByteBuffer.wrap(policy)), policy.length)) {
            S3Errors.check(put, "test", "PutBucketPolicy");
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (gateway != null) {
            gateway.close();
        }
    }

    private static S3Keys keys(RadosGateway.Account account) {
        return new S3Keys(account.accessKey(), account.secretKey());
    }

    private static URI url(String key) {
        return URI.create(gateway.url("/" + BUCKET + "/" + key));
    }

    @Test
    void theOwnersKeysWriteReadAndDelete() throws Exception {
        URI single = url("own/single.dat");
        byte[] data = S3Objects.random(150_000, 31);
        S3Objects.write(access, single, atlas, data, data.length, 20_000);
        assertEquals(data.length, access.stat(single, ChecksumAlgorithm.ADLER32, atlas, "prepare").size());
        assertArrayEquals(data, S3Objects.read(access, single, atlas));

        URI multipart = url("own/multipart.dat");
        byte[] large = S3Objects.random(2 * PART + 999, 32);
        S3Objects.write(access, multipart, atlas, large, -1, 1 << 20);
        assertArrayEquals(large, S3Objects.read(access, multipart, atlas));

        access.delete(single, atlas, "transfer");
        access.delete(multipart, atlas, "transfer");
        assertFalse(access.exists(single, atlas, "prepare"));
    }

    @Test
    void theOtherVoReadsWhatThePolicyGrantsAndNothingElse() throws Exception {
        byte[] data = S3Objects.random(1000, 33);
        S3Objects.write(access, url("shared/granted.dat"), atlas, data, data.length, 1000);
        S3Objects.write(access, url("private/kept.dat"), atlas, data, data.length, 1000);

        assertArrayEquals(data, S3Objects.read(access, url("shared/granted.dat"), cms));
        MoverException refused = assertThrows(MoverException.class, () -> S3Objects.read(access, url("private/kept.dat"), cms));
        assertEquals(MoverException.Code.PERMISSION_DENIED, refused.code(), refused.getMessage());
        assertTrue(refused.getMessage().contains(REFUSAL), refused.getMessage());
        assertFalse(refused.retryable());
    }

    @Test
    void theOtherVosWritesAreRefusedWithAccessDeniedAndWriteNothing() throws Exception {
        URI single = url("shared/by-cms.dat");
        StorageAccess.Upload up = access.write(single, 1000, cms, "transfer");
        up.write(ByteBuffer.wrap(S3Objects.random(1000, 34)));
        MoverException put = assertThrows(MoverException.class, up::commit);
        up.close();
        assertEquals(MoverException.Code.PERMISSION_DENIED, put.code(), put.getMessage());
        assertTrue(put.getMessage().contains(REFUSAL), put.getMessage());
        assertEquals("transfer", put.phase());

        URI multipart = url("shared/by-cms-multipart.dat");
        // a part's failure reaches the writer as an IOException (the upload is a channel); the mover reads it so
        IOException thrown = assertThrows(IOException.class,
                () -> S3Objects.write(access, multipart, cms, S3Objects.random(2 * PART, 35), -1, 1 << 20));
        MoverException initiate = HttpMover.ioFailure(thrown, "transfer");
        assertEquals(MoverException.Code.PERMISSION_DENIED, initiate.code(), initiate.getMessage());
        assertTrue(initiate.getMessage().contains(REFUSAL), initiate.getMessage());

        assertFalse(access.exists(single, atlas, "prepare"), "the refused PUT wrote nothing");
        assertFalse(access.exists(multipart, atlas, "prepare"), "the refused multipart upload wrote nothing");
        S3ObjectUrl bucket = new S3ObjectUrl(false, "127.0.0.1", gateway.port, BUCKET, "");
        try (HttpWire.Response list = requests.send("GET", bucket, Map.of("uploads", ""), Map.of(), atlas)) {
            String body = S3Errors.text(list);
            assertEquals(200, list.status, body);
            assertFalse(body.contains("<Upload>"), "no multipart upload was begun: " + body);
        }
    }

    @Test
    void theOtherVoCannotDeleteTheOwnersObject() throws Exception {
        URI url = url("shared/precious.dat");
        byte[] data = S3Objects.random(500, 36);
        S3Objects.write(access, url, atlas, data, data.length, 500);
        MoverException delete = assertThrows(MoverException.class, () -> access.delete(url, cms, "transfer"));
        assertEquals(MoverException.Code.PERMISSION_DENIED, delete.code(), delete.getMessage());
        assertTrue(delete.getMessage().contains(REFUSAL), delete.getMessage());
        assertArrayEquals(data, S3Objects.read(access, url, atlas));
    }
}
