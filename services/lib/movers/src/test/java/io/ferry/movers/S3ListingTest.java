package io.ferry.movers;

import io.ferry.dev.S3Server;
import io.ferry.dev.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An S3 prefix listed as a directory against a real S3 server (s3proxy): pages followed, keys made relative. */
class S3ListingTest {

    private static final String BUCKET = "ferry-listing";
    private static final S3Keys KEYS = new S3Keys(S3Server.IDENTITY, S3Server.CREDENTIAL);

    @TempDir
    static Path pkiDir;
    private static S3Server server;
    private static S3Access access;

    @BeforeAll
    static void start() throws Exception {
        TestCertificates pki = TestCertificates.create(pkiDir);
        server = new S3Server(pki, BUCKET);
        StorageTls tls = TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty());
        access = new S3Access(new HttpWire(Duration.ofSeconds(5), Duration.ofSeconds(30), tls), Clock.systemUTC(), S3Access.MIN_PART_SIZE, 2,
                64L << 20);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private static URI url(String path) {
        return URI.create(server.url("/" + BUCKET + "/" + path));
    }

    @Test
    void everyObjectBelowThePrefixIsListedAcrossPagesByItsRelativeKey() throws Exception {
        ListingTree tree = new ListingTree(List.of("a.root", "sub dir/b.root", "sub dir/ü ñ/c.root", "tmp/x.log"), 7);
        byte[] object = new byte[tree.size()];
        for (String k : tree.files()) {
            S3Objects.write(access, URI.create(url("").toString() + StorageUrlPaths.encode("run/" + k)), KEYS, object, object.length, object.length);
        }
        S3Objects.write(access, url("runaway/not-below"), KEYS, new byte[1], 1, 1);
        // more than one page of 1000 keys
        for (int i = 0; i < 1001; i++) {
            S3Objects.write(access, url("many/f" + i), KEYS, new byte[1], 1, 1);
        }

        assertEquals(tree.listed(), ListingTree.inPathOrder(access.list(url("run/"), url(""), KEYS, p -> true, 100)));

        DirectoryListing.Listing many = access.list(url("many/"), url(""), KEYS, p -> true, 10);
        assertEquals(10, many.files().size());
        assertEquals(1001, many.matching());
        assertTrue(many.overLimit());
        assertEquals(1001, access.list(url("many/"), url(""), KEYS, p -> true, 10_000).files().size());
    }

    @Test
    void aPrefixWithoutObjectsOrAnUnknownBucketIsNotFoundAndBadKeysAreRefused() {
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, assertThrows(MoverException.class,
                () -> access.list(url("nothing-here/"), url(""), KEYS, p -> true, 10)).code());
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, assertThrows(MoverException.class,
                () -> access.list(URI.create(server.url("/no-such-bucket/run/")), null, KEYS, p -> true, 10)).code());
        assertEquals(MoverException.Code.PERMISSION_DENIED, assertThrows(MoverException.class,
                () -> access.list(url("run/"), url(""), new S3Keys(S3Server.IDENTITY, "wrong-secret"), p -> true, 10)).code());
    }

    /** Keys with spaces and Unicode as a URL path carries them. */
    private static final class StorageUrlPaths {
        static String encode(String key) {
            StringBuilder out = new StringBuilder();
            for (String segment : key.split("/")) {
                out.append(out.length() == 0 ? "" : "/").append(java.net.URLEncoder.encode(segment, java.nio.charset.StandardCharsets.UTF_8)
                        .replace("+", "%20"));
            }
            return out.toString();
        }
    }
}
