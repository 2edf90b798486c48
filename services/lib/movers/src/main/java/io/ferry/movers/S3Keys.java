package io.ferry.movers;

import java.util.Objects;

/**
 * An S3 account at one SE: the access key id and secret key its requests are signed with (AWS Signature Version 4),
 * the region the signatures are scoped to ({@code us-east-1} when the SE names none: Ceph RadosGW and most
 * on-premises stores accept it), and whether buckets are addressed as {@code bucket.host} (virtual-host style, as
 * cloud stores want) rather than {@code host/bucket} (path style, what RadosGW and s3proxy answer by default).
 */
public record S3Keys(String accessKeyId, String secretKey, String region, boolean virtualHostStyle) implements StorageCredential {

    /** The region used when the account names none. */
    public static final String DEFAULT_REGION = "us-east-1";

    public S3Keys {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretKey, "secretKey");
        region = region == null || region.isBlank() ? DEFAULT_REGION : region;
        // the key id and region go into the Authorization header and the signing scope: a space or a control character
        // would split the header or the scope's fields
        if (!visibleAscii(accessKeyId) || !visibleAscii(region) || region.indexOf('/') >= 0) {
            throw new IllegalArgumentException("an S3 access key id and region are runs of visible ASCII characters");
        }
        if (secretKey.isEmpty()) {
            throw new IllegalArgumentException("an S3 secret key is not empty");
        }
    }

    /** Path-style keys in the default region. */
    public S3Keys(String accessKeyId, String secretKey) {
        this(accessKeyId, secretKey, DEFAULT_REGION, false);
    }

    private static boolean visibleAscii(String s) {
        return !s.isEmpty() && s.chars().allMatch(c -> c >= 0x21 && c <= 0x7e);
    }

    /** Names the account (its key id is no secret: it is sent in every request) but never the secret key. */
    @Override
    public String toString() {
        return "S3Keys[" + accessKeyId + ", " + region + (virtualHostStyle ? ", virtual-host style" : ", path style") + ", secret redacted]";
    }
}
