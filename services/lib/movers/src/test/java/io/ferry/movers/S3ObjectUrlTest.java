package io.ferry.movers;

import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** How an s3:// URL becomes the request an S3 store is sent, in path and virtual-host style. */
class S3ObjectUrlTest {

    @Test
    void pathStyleNamesTheBucketInThePathAndEncodesTheKeyAsSigV4Signs() throws MoverException {
        S3ObjectUrl o = S3ObjectUrl.parse(URI.create("s3s://RGW.example.org:8443/data/run%201/f(1)+%C3%A9.root"), "prepare");
        assertEquals("data", o.bucket());
        assertEquals("run 1/f(1)+\u00e9.root", o.key());
        assertEquals("rgw.example.org:8443", o.hostHeader(false));
        assertEquals("/data/run%201/f%281%29%2B%C3%A9.root", o.path(false));
        assertEquals(URI.create("https://rgw.example.org:8443/data/run%201/f%281%29%2B%C3%A9.root?uploads="), o.http(false, "uploads="));
    }

    @Test
    void virtualHostStyleNamesTheBucketInTheHost() throws MoverException {
        S3ObjectUrl o = S3ObjectUrl.parse(URI.create("s3://s3.example.org/my-bucket/a/b.dat"), "prepare");
        assertEquals("my-bucket.s3.example.org", o.hostHeader(true));
        assertEquals("/a/b.dat", o.path(true));
        assertEquals(URI.create("http://my-bucket.s3.example.org/a/b.dat"), o.http(true, null));
    }

    @Test
    void refusesOtherSchemesAndUrlsWithoutAKey() {
        for (String url : new String[] {"https://h/b-u-c/k", "s3://h/b-u-c", "s3://h/b-u-c/dir/", "s3://h/", "s3://h/a%20b/k"}) {
            MoverException e = assertThrows(MoverException.class, () -> S3ObjectUrl.parse(URI.create(url), "prepare"), url);
            assertEquals(MoverException.Code.UNSUPPORTED_URL, e.code());
        }
    }
}
