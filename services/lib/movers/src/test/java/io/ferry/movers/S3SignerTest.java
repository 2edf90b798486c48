package io.ferry.movers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link S3Signer} against AWS's published Signature Version 4 vectors: the generic test suite (service "service",
 * 2015-08-30T12:36:00Z, key AKIDEXAMPLE) and the worked S3 examples of the S3 API reference (GetObject with a
 * Range header, a pre-signed GET).
 */
class S3SignerTest {

    private static final S3Keys SUITE_KEYS = new S3Keys("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1", false);
    private static final Instant SUITE_TIME = Instant.parse("2015-08-30T12:36:00Z");
    private static final String HOST = "example.amazonaws.com";

    static Stream<Arguments> suite() {
        return Stream.of(
                Arguments.of("get-vanilla", "GET", "/", Map.of(), Map.of(), "",
                        "host;x-amz-date", "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31"),
                Arguments.of("get-unreserved", "GET", "/-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", Map.of(), Map.of(), "",
                        "host;x-amz-date", "07ef7494c76fa4850883e2b006601f940f8a34d404d0cfa977f52a65bbf5f24f"),
                Arguments.of("get-utf8", "GET", "/\u1234", Map.of(), Map.of(), "",
                        "host;x-amz-date", "8318018e0b0f223aa2bbf98705b62bb787dc9c0e678f255a891fd03141be5d85"),
                Arguments.of("get-vanilla-query-order-key-case", "GET", "/", Map.of("Param2", "value2", "Param1", "value1"), Map.of(), "",
                        "host;x-amz-date", "b97d918cfa904a5beff61c982a1b6f458b799221646efd99d3219ec94cdf2500"),
                Arguments.of("get-vanilla-query-unreserved", "GET", "/",
                        Map.of("-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
                        Map.of(), "", "host;x-amz-date", "9c3e54bfcdf0b19771a7f523ee5669cdf59bc7cc0884027167c21bb143a40197"),
                Arguments.of("get-vanilla-utf8-query", "GET", "/", Map.of("\u1234", "bar"), Map.of(), "",
                        "host;x-amz-date", "2cdec8eed098649ff3a119c94853b13c643bcf08f8b0a1d91e12c9027818dd04"),
                Arguments.of("get-header-value-trim", "GET", "/", Map.of(), Map.of("My-Header1", " value1", "My-Header2", " \"a   b   c\""), "",
                        "host;my-header1;my-header2;x-amz-date", "acc3ed3afb60bb290fc8d2dd0098b9911fcaa05412b367055dee359757a9c736"),
                Arguments.of("post-vanilla", "POST", "/", Map.of(), Map.of(), "",
                        "host;x-amz-date", "5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b"),
                Arguments.of("post-header-key-sort", "POST", "/", Map.of(), Map.of("My-Header1", "value1"), "",
                        "host;my-header1;x-amz-date", "c5410059b04c1ee005303aed430f6e6645f61f4dc9e1461ec8f8916fdf18852c"),
                Arguments.of("post-header-value-case", "POST", "/", Map.of(), Map.of("My-Header1", "VALUE1"), "",
                        "host;my-header1;x-amz-date", "cdbc9802e29d2942e5e10b5bccfdd67c5f22c7c4e8ae67b53629efa58b974b7d"),
                Arguments.of("post-vanilla-query-nonunreserved", "POST", "/", Map.of("@#$%^", "", "+", "/,?><`\";:\\|][{}"), Map.of(), "",
                        "host;x-amz-date", "66c82657c86e26fb25238d0e69f011edc4c6df5ae71119d7cb98ed9b87393c1e"),
                Arguments.of("post-x-www-form-urlencoded", "POST", "/", Map.of(), Map.of("Content-Type", "application/x-www-form-urlencoded"),
                        "Param1=value1", "content-type;host;x-amz-date", "ff11897932ad3f4e8b18135d722051e5ac45fc38421b1da7b9d196a0fe09473a"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("suite")
    void signsTheTestSuiteVector(String name, String method, String path, Map<String, String> query, Map<String, String> extraHeaders,
                                 String body, String signedHeaders, String signature) {
        Map<String, String> headers = new LinkedHashMap<>(extraHeaders);
        headers.put("Host", HOST);
        headers.put("X-Amz-Date", S3Signer.amzDate(SUITE_TIME));
        String authorization = new S3Signer(SUITE_KEYS, "service").authorization(method, S3Signer.encode(path, true), query, headers,
                S3Signer.sha256Hex(body.getBytes(StandardCharsets.UTF_8)), SUITE_TIME);
        assertEquals("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=" + signedHeaders
                + ", Signature=" + signature, authorization);
    }

    /** The S3 API reference's GetObject example: the first ten bytes of examplebucket/test.txt. */
    @Test
    void signsTheS3GetObjectExample() {
        S3Keys keys = new S3Keys("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        Instant at = Instant.parse("2013-05-24T00:00:00Z");
        Map<String, String> headers = Map.of("Host", "examplebucket.s3.amazonaws.com", "Range", "bytes=0-9",
                "x-amz-content-sha256", S3Signer.EMPTY_SHA256, "x-amz-date", S3Signer.amzDate(at));
        assertEquals("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, "
                        + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
                new S3Signer(keys).authorization("GET", "/test.txt", Map.of(), headers, S3Signer.EMPTY_SHA256, at));
    }

    /** The S3 API reference's pre-signed GET of examplebucket/test.txt, valid for 86400 s. */
    @Test
    void presignsTheS3Example() {
        S3Keys keys = new S3Keys("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        String query = new S3Signer(keys).presignedQuery("GET", "examplebucket.s3.amazonaws.com", "/test.txt", Duration.ofDays(1),
                Instant.parse("2013-05-24T00:00:00Z"));
        assertEquals("X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404", query);
    }

    @Test
    void encodesEachByteButTheUnreservedAndKeepsSlashesOnlyInPaths() {
        assertEquals("/a%20b/%C3%A9%2B%24", S3Signer.encode("/a b/é+$", true));
        assertEquals("a%2Fb", S3Signer.encode("a/b", false));
    }

    @Test
    void refusesAPresignedValidityBeyondSevenDays() {
        S3Signer signer = new S3Signer(SUITE_KEYS);
        assertThrows(IllegalArgumentException.class, () -> signer.presignedQuery("GET", HOST, "/", Duration.ofDays(8), SUITE_TIME));
        assertThrows(IllegalArgumentException.class, () -> signer.presignedQuery("GET", HOST, "/", Duration.ZERO, SUITE_TIME));
    }

    @Test
    void keysNeverPrintTheirSecret() {
        S3Keys keys = new S3Keys("AKID", "very-secret-key", null, true);
        assertFalse(keys.toString().contains("very-secret-key"));
        assertTrue(keys.toString().contains("AKID"));
        assertEquals("us-east-1", keys.region());
        assertThrows(IllegalArgumentException.class, () -> new S3Keys("AK ID", "s"));
    }
}
