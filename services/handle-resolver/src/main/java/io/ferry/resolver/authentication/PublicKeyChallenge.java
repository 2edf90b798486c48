package io.ferry.resolver.authentication;

import io.ferry.resolver.nativeprotocol.wire.WireReader;
import io.ferry.resolver.nativeprotocol.wire.ProtocolException;
import io.ferry.resolver.nativeprotocol.wire.KeyEncoding;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;

/**
 * Checks the answer to a public-key challenge as CNRI's library signs it: the nonce followed by the challenged
 * request's digest, signed by the private key whose public half is the HS_PUBKEY value named; the answer is the
 * hash algorithm's name ({@code SHA-256}, {@code SHA1}, …) and the signature, each length-prefixed. HS_PUBKEY holds
 * CNRI's key encoding ({@link KeyEncoding}).
 */
public final class PublicKeyChallenge {

    private PublicKeyChallenge() {
    }

    public static boolean verify(byte[] hsPubkey, byte[] nonce, byte[] requestDigest, byte[] answer) {
        if (hsPubkey == null) {
            return false;
        }
        try {
            return verify(publicKey(hsPubkey), nonce, requestDigest, answer);
        } catch (GeneralSecurityException | ProtocolException | IllegalArgumentException e) {
            return false;
        }
    }

    /** As {@link #verify(byte[], byte[], byte[], byte[])} for a key already read. */
    public static boolean verify(PublicKey key, byte[] nonce, byte[] requestDigest, byte[] answer) {
        if (key == null || answer == null) {
            return false;
        }
        try {
            WireReader in = new WireReader(answer, 0, answer.length);
            String hash = new String(in.bytes(), StandardCharsets.US_ASCII).toUpperCase(java.util.Locale.ROOT).replace("-", "");
            byte[] signature = in.bytes();
            String prefix = switch (hash) {
                case "SHA256" -> "SHA256with";
                case "SHA1" -> "SHA1with";
                default -> null;
            };
            if (prefix == null) {
                return false;
            }
            Signature verifier = Signature.getInstance(prefix + key.getAlgorithm());
            verifier.initVerify(key);
            verifier.update(nonce);
            verifier.update(requestDigest);
            return verifier.verify(signature);
        } catch (GeneralSecurityException | ProtocolException | IllegalArgumentException e) {
            return false;
        }
    }

    /** The key of an HS_PUBKEY value, or null for a kind this server does not read. */
    public static PublicKey publicKey(byte[] encoded) throws GeneralSecurityException {
        return KeyEncoding.publicKey(encoded);
    }
}
