package io.ferry.resolver.authentication;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * HS_SECKEY values as CNRI keeps them. CNRI's one hashed form ({@code net.handle.hdllib.Encoder.encodeSecretKey}
 * with {@code hash=true}, the "hash" box of hdl-admintool) is the lower-case hex of the key's SHA-1: that is what the
 * value holds and what a native client that hashes uses as its MAC key, so storing keys that way keeps them usable by
 * CNRI's challenge-response while the clear key is never stored. A value written here is stored hashed; a value that
 * already is a hash (or was imported in the clear) is kept as it is, and both verify.
 */
public final class SecretKeys {

    private static final int HASH_HEX_LENGTH = 40;

    private SecretKeys() {
    }

    /** What to store for a key given as {@code key}: its CNRI hash, unless it already has that form. */
    public static String stored(byte[] key) {
        String text = new String(key, StandardCharsets.UTF_8);
        return isHash(text) ? text : hash(key);
    }

    /** CNRI's hashed form of a key: lower-case hex of its SHA-1. */
    public static String hash(byte[] key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1").digest(key));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has SHA-1", e);
        }
    }

    /** Whether {@code text} has the form of a hashed key. */
    public static boolean isHash(String text) {
        return text.length() == HASH_HEX_LENGTH && text.chars().allMatch(c -> (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'));
    }

    /**
     * Whether {@code presented} (what a client sent over HTTP Basic) opens the stored value {@code stored}: the value
     * is the presented key itself (an imported clear key, or a client that sends the hash), or its hash.
     */
    public static boolean verifies(byte[] stored, byte[] presented) {
        if (MessageDigest.isEqual(stored, presented)) {
            return true;
        }
        return MessageDigest.isEqual(stored, hash(presented).getBytes(StandardCharsets.US_ASCII));
    }
}
