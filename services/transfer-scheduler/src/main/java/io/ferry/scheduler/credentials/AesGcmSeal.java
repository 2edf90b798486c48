package io.ferry.scheduler.credentials;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The one way the scheduler keeps a secret at rest (files' bearer tokens, delegated proxies and their keys):
 * AES-GCM with a fresh 96-bit nonce per value and associated data naming where the value is stored, so a sealed value
 * copied to another row does not open. Sealed form: version byte, nonce, ciphertext with its 128-bit tag.
 */
public final class AesGcmSeal {

    private static final byte VERSION = 1;
    private static final int NONCE = 12;
    private static final int TAG_BITS = 128;
    private static final SecureRandom RANDOM = new SecureRandom();

    private AesGcmSeal() {
    }

    public static byte[] seal(SecretKey key, byte[] plain, byte[] associated) {
        byte[] nonce = new byte[NONCE];
        RANDOM.nextBytes(nonce);
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            c.updateAAD(associated);
            byte[] sealed = c.doFinal(plain);
            return ByteBuffer.allocate(1 + NONCE + sealed.length).put(VERSION).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available: " + e.getMessage(), e);
        }
    }

    /** The plain bytes; {@link AEADBadTagException} when the value was sealed with another key, for another place, or altered. */
    public static byte[] open(SecretKey key, byte[] sealed, byte[] associated) throws AEADBadTagException {
        if (sealed == null || sealed.length < 1 + NONCE + TAG_BITS / 8 || sealed[0] != VERSION) {
            throw new AEADBadTagException("not a sealed value of this version");
        }
        try {
            Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
            c.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 1, NONCE));
            c.updateAAD(associated);
            return c.doFinal(sealed, 1 + NONCE, sealed.length - 1 - NONCE);
        } catch (AEADBadTagException e) {
            throw e;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is not available: " + e.getMessage(), e);
        }
    }

    /** A key from its base64 setting {@code name}, of one of {@code sizes} bytes; a clear startup failure otherwise. */
    public static SecretKey parseKey(String base64, String name, Set<Integer> sizes) {
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(base64.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(name + " is not base64");
        }
        if (!sizes.contains(raw.length)) {
            throw new IllegalStateException(name + " must be " + sizes.stream().sorted().map(String::valueOf)
                    .reduce((a, b) -> a + ", " + b).orElseThrow() + " bytes in base64, not " + raw.length);
        }
        SecretKey k = new SecretKeySpec(raw, "AES");
        Arrays.fill(raw, (byte) 0);
        return k;
    }

    /** A random AES-256 key (dev and test runs without a configured one: what they seal lives as long as the process). */
    public static SecretKey randomKey() {
        byte[] raw = new byte[32];
        RANDOM.nextBytes(raw);
        return new SecretKeySpec(raw, "AES");
    }
}
