package io.ferry.movers;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An S3 store's refusal as a {@link MoverException}: the status and the XML error's {@code Code} and
 * {@code Message} kept in the message, the code mapped to Ferry's: a missing key or bucket is SOURCE_NOT_FOUND, a
 * refused or mis-signed request PERMISSION_DENIED, a server error or {@code SlowDown} HTTP_5XX (tried again later),
 * S3's {@code RequestTimeout} TIMEOUT, a body the store found altered ({@code BadDigest}) CHECKSUM_MISMATCH.
 */
final class S3Errors {

    /** More of an error body is never read: S3 errors are a few hundred bytes. */
    private static final int MAX_ERROR_BODY = 16 << 10;
    private static final Pattern CODE = Pattern.compile("<Code>([^<]{1,200})</Code>");
    private static final Pattern MESSAGE = Pattern.compile("<Message>([^<]{0,1000})</Message>");

    private S3Errors() {
    }

    /** Nothing when {@code response} succeeded; else its failure (its body read, the connection freed). */
    static void check(HttpWire.Response response, String phase, String what) throws MoverException, IOException {
        if (response.status < 300) {
            return;
        }
        throw failure(response.status, text(response), phase, what);
    }

    /** A small body's text (an error, an S3 XML answer: at most {@link #MAX_ERROR_BODY} bytes); the response is closed. */
    static String text(HttpWire.Response response) throws IOException {
        try (response) {
            InputStream body = response.body;
            byte[] text = body.readNBytes(MAX_ERROR_BODY);
            if (body.read() >= 0) {
                response.abort();  // more than an answer is worth: the connection is dropped rather than drained
            }
            return new String(text, StandardCharsets.UTF_8);
        }
    }

    /** The failure {@code status} with error body {@code body} (empty for HEAD) means. */
    static MoverException failure(int status, String body, String phase, String what) {
        String code = first(CODE, body);
        String message = first(MESSAGE, body);
        MoverException.Code mapped = switch (code == null ? "" : code) {
            case "NoSuchKey", "NoSuchBucket" -> MoverException.Code.SOURCE_NOT_FOUND;
            case "AccessDenied", "SignatureDoesNotMatch", "InvalidAccessKeyId", "AllAccessDisabled", "AccountProblem", "RequestTimeTooSkewed"
                    -> MoverException.Code.PERMISSION_DENIED;
            case "SlowDown", "InternalError", "ServiceUnavailable" -> MoverException.Code.HTTP_5XX;
            case "RequestTimeout" -> MoverException.Code.TIMEOUT;
            case "BadDigest", "InvalidDigest" -> MoverException.Code.CHECKSUM_MISMATCH;
            default -> status == 404 ? MoverException.Code.SOURCE_NOT_FOUND
                    : status == 401 || status == 403 ? MoverException.Code.PERMISSION_DENIED
                    : status >= 500 ? MoverException.Code.HTTP_5XX : MoverException.Code.HTTP_ERROR;
        };
        return new MoverException(mapped, phase, what + " answered HTTP " + status + (code == null ? "" : " " + code)
                + (message == null || message.isBlank() ? "" : ": " + message));
    }

    /** The first group of {@code p} in {@code body}, XML's five entities decoded; null when absent. */
    static String first(Pattern p, String body) {
        Matcher m = p.matcher(body);
        return m.find() ? unescape(m.group(1).trim()) : null;
    }

    static String unescape(String xml) {
        return xml.replace("&quot;", "\"").replace("&apos;", "'").replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    }
}
