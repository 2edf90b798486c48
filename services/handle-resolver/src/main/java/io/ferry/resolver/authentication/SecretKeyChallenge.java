package io.ferry.resolver.authentication;

import io.ferry.resolver.nativeprotocol.wire.WireWriter;
import io.ferry.resolver.nativeprotocol.wire.WireReader;
import io.ferry.resolver.nativeprotocol.wire.ProtocolException;

import javax.crypto.Mac;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * Checks the answer to a secret-key challenge the way CNRI's library computes it: a MAC, keyed by the HS_SECKEY
 * value's bytes, of the nonce followed by the digest of the challenged request; the answer's first byte names the
 * MAC (PBKDF2-HMAC-SHA1 from protocol 2.7, whose answer also carries its salt, iterations and key length; HMAC-SHA1,
 * HMAC-SHA256; or the older key+data+key digests). A key stored plain also accepts an answer keyed by CNRI's
 * hashed form of it (the lower-case hex SHA-1 that {@code SecretKeyAuthenticationInfo(…, hash=true)} uses).
 */
public final class SecretKeyChallenge {

    public static final byte MD5 = 1;
    public static final byte SHA1 = 2;
    public static final byte SHA256 = 3;
    public static final byte HMAC_SHA1 = 0x12;
    public static final byte HMAC_SHA256 = 0x13;
    public static final byte PBKDF2_HMAC_SHA1 = 0x22;

    /** Bounds what an answer may ask this server to compute. */
    private static final int MAX_ITERATIONS = 100_000;

    private SecretKeyChallenge() {
    }

    public static boolean verify(byte[] storedKey, byte[] nonce, byte[] requestDigest, byte[] answer) {
        if (storedKey == null || storedKey.length == 0 || answer == null || answer.length < 2) {
            return false;
        }
        byte[] signed = concat(nonce, requestDigest);
        if (matches(storedKey, signed, answer)) {
            return true;
        }
        byte[] hashed = cnriHashed(storedKey);
        return !Arrays.equals(hashed, storedKey) && matches(hashed, signed, answer);
    }

    /** CNRI's hashed secret key: the lower-case hex of the key's SHA-1, as bytes. */
    public static byte[] cnriHashed(byte[] key) {
        return SecretKeys.hash(key).getBytes(StandardCharsets.US_ASCII);
    }

    private static boolean matches(byte[] key, byte[] signed, byte[] answer) {
        byte alg = answer[0];
        byte[] mac = Arrays.copyOfRange(answer, 1, answer.length);
        try {
            byte[] expected = alg == PBKDF2_HMAC_SHA1 ? pbkdf2(key, signed, mac) : mac(alg, key, signed);
            return expected != null && MessageDigest.isEqual(expected, mac);
        } catch (GeneralSecurityException | ProtocolException e) {
            return false;
        }
    }

    /** CNRI's keyed digest {@code alg} of {@code data} (HMACs, or the older key+data+key digests); null for another code. */
    public static byte[] mac(byte alg, byte[] key, byte[] data) throws GeneralSecurityException {
        return switch (alg) {
            case HMAC_SHA1 -> hmac("HmacSHA1", key, data);
            case HMAC_SHA256 -> hmac("HmacSHA256", key, data);
            case SHA256 -> digest("SHA-256", key, data, key);
            case SHA1 -> digest("SHA-1", key, data, key);
            case MD5 -> digest("MD5", key, data, key);
            default -> null;
        };
    }

    /**
     * The answer's PBKDF2 encoding recomputed with its own salt, iterations and key length: salt (length-prefixed),
     * iterations, key length in bits, then the HMAC-SHA1 (length-prefixed) keyed by the derived key.
     */
    private static byte[] pbkdf2(byte[] key, byte[] signed, byte[] encoding) throws GeneralSecurityException {
        WireReader in = new WireReader(encoding, 0, encoding.length);
        byte[] salt = in.bytes();
        int iterations = in.int4();
        int keyLength = in.int4();
        if (iterations <= 0 || iterations > MAX_ITERATIONS || keyLength <= 0 || keyLength > 1024 || salt.length == 0) {
            return null;
        }
        char[] password = new char[key.length];
        for (int i = 0; i < key.length; i++) {
            password[i] = (char) (key[i] & 0xff);
        }
        byte[] derived = SecretKeyFactory.getInstance("PBKDF2WithHmacSHA1")
                .generateSecret(new PBEKeySpec(password, salt, iterations, keyLength)).getEncoded();
        byte[] mac = hmac("HmacSHA1", derived, signed);
        return new WireWriter(encoding.length).bytes(salt).int4(iterations).int4(keyLength).bytes(mac).toByteArray();
    }

    private static byte[] hmac(String alg, byte[] key, byte[] data) throws GeneralSecurityException {
        Mac mac = Mac.getInstance(alg);
        mac.init(new SecretKeySpec(key, alg));
        return mac.doFinal(data);
    }

    private static byte[] digest(String alg, byte[]... parts) throws GeneralSecurityException {
        MessageDigest md = MessageDigest.getInstance(alg);
        for (byte[] p : parts) {
            md.update(p);
        }
        return md.digest();
    }

    public static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
