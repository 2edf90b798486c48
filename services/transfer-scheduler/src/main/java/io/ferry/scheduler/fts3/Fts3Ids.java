package io.ferry.scheduler.fts3;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * FTS3's name-based identifiers, computed as fts-rest does so clients that compare them (whoami's {@code vos_id},
 * deterministic job ids) see the same values from Ferry: RFC 4122 version-5 UUIDs under FTS3's fixed namespace.
 */
public final class Fts3Ids {

    /** fts-rest's {@code BASE_ID}, reported by {@code /whoami} as {@code base_id}. */
    public static final UUID BASE_ID = UUID.fromString("01874efb-4735-4595-bc9c-591aef8240c9");

    private Fts3Ids() {
    }

    /** A VO's id: {@code uuid5(BASE_ID, vo)}. */
    public static UUID voId(String vo) {
        return uuid5(BASE_ID, vo);
    }

    /** RFC 4122 §4.3 with SHA-1: the namespace's 16 bytes, then the name in UTF-8. */
    public static UUID uuid5(UUID namespace, String name) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(ByteBuffer.allocate(16).putLong(namespace.getMostSignificantBits())
                    .putLong(namespace.getLeastSignificantBits()).array());
            byte[] hash = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
            hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
            hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
            ByteBuffer b = ByteBuffer.wrap(hash, 0, 16);
            return new UUID(b.getLong(), b.getLong());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }
}
