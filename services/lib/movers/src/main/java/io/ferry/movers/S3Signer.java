package io.ferry.movers;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * AWS Signature Version 4 for one account: the {@code Authorization} header of a request, or the query string of a
 * pre-signed URL. Canonical URIs are given already encoded (each segment by {@link #encode}, '/' kept) and are sent
 * on the wire exactly so: S3 signs the path as sent, encoded once (other AWS services encode it twice).
 */
final class S3Signer {

    /** The payload hash of a request whose body is not hashed into the signature. */
    static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
    /** SHA-256 of no bytes: the payload hash of a request without a body. */
    static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    /** The longest validity SigV4 allows a pre-signed URL (seven days). */
    static final Duration MAX_PRESIGNED = Duration.ofDays(7);

    private static final String ALGORITHM = "AWS4-HMAC-SHA256";
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

    private final S3Keys keys;
    private final String service;

    /** Signs for S3. */
    S3Signer(S3Keys keys) {
        this(keys, "s3");
    }

    /** Signs for {@code service} (AWS's generic test suite signs for "service"). */
    S3Signer(S3Keys keys, String service) {
        this.keys = keys;
        this.service = service;
    }

    /** {@code at} as {@code x-amz-date} writes it. */
    static String amzDate(Instant at) {
        return AMZ_DATE.format(at);
    }

    /**
     * The {@code Authorization} value of a request whose headers (names in any case; {@code host} and
     * {@code x-amz-date} among them) are all signed.
     *
     * @param canonicalUri the encoded path as sent
     * @param query        decoded query parameters (the empty string for a name without value)
     * @param payloadHash  hex SHA-256 of the body, or {@link #UNSIGNED_PAYLOAD}
     */
    String authorization(String method, String canonicalUri, Map<String, String> query, Map<String, String> headers,
                         String payloadHash, Instant at) {
        TreeMap<String, String> canonical = canonicalHeaders(headers);
        String signedHeaders = String.join(";", canonical.keySet());
        String request = canonicalRequest(method, canonicalUri, canonicalQuery(query), canonical, payloadHash);
        return ALGORITHM + " Credential=" + keys.accessKeyId() + "/" + scope(at) + ", SignedHeaders=" + signedHeaders
                + ", Signature=" + signature(request, at);
    }

    /**
     * The query string (encoded, without '?') that makes a URL pre-signed for {@code method} on {@code host}, valid
     * for {@code expires} from {@code at}: only the host header is signed, the payload is not.
     */
    String presignedQuery(String method, String host, String canonicalUri, Duration expires, Instant at) {
        if (expires.isNegative() || expires.isZero() || expires.compareTo(MAX_PRESIGNED) > 0) {
            throw new IllegalArgumentException("a pre-signed URL is valid for 1 s to 7 days, not " + expires);
        }
        Map<String, String> query = new TreeMap<>();
        query.put("X-Amz-Algorithm", ALGORITHM);
        query.put("X-Amz-Credential", keys.accessKeyId() + "/" + scope(at));
        query.put("X-Amz-Date", amzDate(at));
        query.put("X-Amz-Expires", Long.toString(expires.toSeconds()));
        query.put("X-Amz-SignedHeaders", "host");
        String canonicalQuery = canonicalQuery(query);
        String request = canonicalRequest(method, canonicalUri, canonicalQuery, canonicalHeaders(Map.of("host", host)), UNSIGNED_PAYLOAD);
        return canonicalQuery + "&X-Amz-Signature=" + signature(request, at);
    }

    /** SigV4's canonical request: what the signature covers. */
    static String canonicalRequest(String method, String canonicalUri, String canonicalQuery, TreeMap<String, String> canonicalHeaders,
                                   String payloadHash) {
        StringBuilder b = new StringBuilder(512);
        b.append(method).append('\n').append(canonicalUri).append('\n').append(canonicalQuery).append('\n');
        canonicalHeaders.forEach((name, value) -> b.append(name).append(':').append(value).append('\n'));
        b.append('\n').append(String.join(";", canonicalHeaders.keySet())).append('\n').append(payloadHash);
        return b.toString();
    }

    /** Header names lower-cased and sorted; values trimmed, inner runs of spaces folded to one. */
    static TreeMap<String, String> canonicalHeaders(Map<String, String> headers) {
        TreeMap<String, String> out = new TreeMap<>();
        headers.forEach((name, value) -> out.merge(name.toLowerCase(Locale.ROOT), value.trim().replaceAll(" +", " "), (a, b) -> a + "," + b));
        return out;
    }

    /** Parameters encoded, sorted by name then value, joined with '&'. */
    static String canonicalQuery(Map<String, String> query) {
        List<String[]> pairs = new ArrayList<>(query.size());
        query.forEach((name, value) -> pairs.add(new String[] {encode(name, false), encode(value, false)}));
        // by name, then value: sorting the joined "name=value" texts would put "a-=" before "a=" ('-' sorts below '=')
        pairs.sort(Comparator.<String[], String>comparing(p -> p[0]).thenComparing(p -> p[1]));
        StringBuilder out = new StringBuilder();
        for (String[] p : pairs) {
            out.append(out.length() == 0 ? "" : "&").append(p[0]).append('=').append(p[1]);
        }
        return out.toString();
    }

    private String scope(Instant at) {
        return amzDate(at).substring(0, 8) + "/" + keys.region() + "/" + service + "/aws4_request";
    }

    private String signature(String canonicalRequest, Instant at) {
        String stringToSign = ALGORITHM + "\n" + amzDate(at) + "\n" + scope(at) + "\n" + sha256Hex(canonicalRequest.getBytes(StandardCharsets.UTF_8));
        byte[] key = hmac(("AWS4" + keys.secretKey()).getBytes(StandardCharsets.UTF_8), amzDate(at).substring(0, 8));
        key = hmac(key, keys.region());
        key = hmac(key, service);
        key = hmac(key, "aws4_request");
        return HexFormat.of().formatHex(hmac(key, stringToSign));
    }

    /**
     * SigV4's URI encoding: every byte of the UTF-8 form except the unreserved {@code A-Z a-z 0-9 - . _ ~} as
     * {@code %XY} (upper-case hex), '/' kept when {@code keepSlash} (a path) and encoded otherwise (a query part).
     */
    static String encode(String s, boolean keepSlash) {
        StringBuilder out = new StringBuilder(s.length() + 16);
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
                    || c == '/' && keepSlash) {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16))).append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return out.toString();
    }

    static String sha256Hex(byte[] data) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every Java runtime has HmacSHA256", e);
        }
    }
}
