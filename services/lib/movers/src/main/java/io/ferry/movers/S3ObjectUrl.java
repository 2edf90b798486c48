package io.ferry.movers;

import io.ferry.storageurl.InvalidStorageUrl;
import io.ferry.storageurl.StorageUrl;

import java.net.URI;
import java.util.List;

/**
 * An object named by an {@code s3://} (plain HTTP) or {@code s3s://} (HTTPS) URL, {@code s3[s]://host[:port]/bucket/key},
 * as gfal2 names them. The URL is read by Ferry's storage URL rules first, so a key never holds a dot-segment, an
 * encoded separator or a control character (in any spelling) and none of them reaches the store; a key's
 * segments are then encoded the way SigV4 signs them and sent exactly so. The bucket is addressed in the path
 * ({@code host/bucket/key}) or, for accounts that want it, in the host name ({@code bucket.host/key}).
 */
record S3ObjectUrl(boolean secure, String host, int port, String bucket, String key) {

    /** The object {@code url} names; UNSUPPORTED_URL, before any request, when it is no S3 object URL Ferry accepts. */
    static S3ObjectUrl parse(URI url, String phase) throws MoverException {
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("s3") && !scheme.equals("s3s")) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, phase, "not an s3:// or s3s:// URL: " + url);
        }
        StorageUrl parsed;
        try {
            parsed = StorageUrl.parse(url.toString());
        } catch (InvalidStorageUrl e) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, phase, "refused " + url + ": " + e.getMessage());
        }
        List<String> segments = parsed.segments();
        if (segments.size() < 2 || parsed.isDirectory()) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, phase, "an S3 URL names /bucket/key: " + url);
        }
        String bucket = segments.get(0);
        if (!validBucket(bucket)) {
            throw new MoverException(MoverException.Code.UNSUPPORTED_URL, phase, "not an S3 bucket name: " + bucket);
        }
        return new S3ObjectUrl(scheme.equals("s3s"), parsed.host(), parsed.port(), bucket, String.join("/", segments.subList(1, segments.size())));
    }

    /**
     * Letters, digits, '.', '-' and '_' (RadosGW's older buckets have capitals and underscores; AWS's rules are
     * stricter, and a bucket that breaks them is refused by the store itself).
     */
    private static boolean validBucket(String bucket) {
        return bucket.length() >= 3 && bucket.length() <= 255 && bucket.chars().allMatch(c -> c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
                || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_');
    }

    /** The Host header: the bucket leads it in virtual-host style. */
    String hostHeader(boolean virtualHost) {
        return (virtualHost ? bucket + "." : "") + host + (port > 0 ? ":" + port : "");
    }

    /** The path as sent and signed (SigV4's encoding, '/' between segments kept). */
    String path(boolean virtualHost) {
        return (virtualHost ? "" : "/" + S3Signer.encode(bucket, false)) + "/" + S3Signer.encode(key, true);
    }

    /** The request URI the wire sends: {@code rawQuery} already encoded (null: none). */
    URI http(boolean virtualHost, String rawQuery) {
        return URI.create((secure ? "https" : "http") + "://" + hostHeader(virtualHost) + path(virtualHost)
                + (rawQuery == null || rawQuery.isEmpty() ? "" : "?" + rawQuery));
    }

    @Override
    public String toString() {
        return (secure ? "s3s://" : "s3://") + host + (port > 0 ? ":" + port : "") + "/" + bucket + "/" + key;
    }
}
