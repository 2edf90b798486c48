package io.ferry.movers;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** S3's error answers as Ferry's codes, the store's own Code and Message kept in the message. */
class S3ErrorsTest {

    @ParameterizedTest
    @CsvSource({
            "404, NoSuchKey, SOURCE_NOT_FOUND", "404, NoSuchBucket, SOURCE_NOT_FOUND", "404, '', SOURCE_NOT_FOUND",
            "403, AccessDenied, PERMISSION_DENIED", "403, SignatureDoesNotMatch, PERMISSION_DENIED", "403, InvalidAccessKeyId, PERMISSION_DENIED",
            "403, '', PERMISSION_DENIED", "503, SlowDown, HTTP_5XX", "500, InternalError, HTTP_5XX", "502, '', HTTP_5XX",
            "400, RequestTimeout, TIMEOUT", "400, BadDigest, CHECKSUM_MISMATCH", "400, InvalidArgument, HTTP_ERROR"})
    void mapsTheStoresCode(int status, String code, MoverException.Code expected) {
        String body = code.isEmpty() ? "" : "<?xml version=\"1.0\"?><Error><Code>" + code + "</Code><Message>it &amp; said so</Message></Error>";
        MoverException e = S3Errors.failure(status, body, "transfer", "object s3://h/b/k");
        assertEquals(expected, e.code());
        assertEquals(expected.retryable, e.retryable());
        assertTrue(e.getMessage().startsWith("object s3://h/b/k answered HTTP " + status), e.getMessage());
        if (!code.isEmpty()) {
            assertTrue(e.getMessage().endsWith(code + ": it & said so"), e.getMessage());
        }
    }
}
