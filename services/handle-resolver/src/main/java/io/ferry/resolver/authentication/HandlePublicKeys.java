package io.ferry.resolver.authentication;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.resolver.model.HandleValue;
import io.ferry.resolver.model.ValueFormats;
import io.ferry.resolver.authentication.PublicKeyChallenge;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.DSAPublicKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.util.Base64;

/**
 * The public key an HS_PUBKEY value holds: CNRI's binary key encoding (stored as {@code hex}, {@code base64} or
 * {@code string}), or the JSON Web Key CNRI's REST API shows it as (format {@code key}: RSA {@code n}, {@code e};
 * DSA {@code p}, {@code q}, {@code g}, {@code y}).
 */
public final class HandlePublicKeys {

    private HandlePublicKeys() {
    }

    /** The key, or null when the value holds none this server reads. */
    public static PublicKey of(HandleValue.Data data) {
        if (data == null || data.value() == null) {
            return null;
        }
        try {
            if ("key".equals(data.format())) {
                return fromJwk(data.value());
            }
            byte[] encoded = ValueFormats.bytes(data);
            return encoded == null ? null : PublicKeyChallenge.publicKey(encoded);
        } catch (GeneralSecurityException | RuntimeException e) {
            return null;
        }
    }

    /** Whether two keys are the same key (their X.509 encodings are equal). */
    public static boolean same(PublicKey a, PublicKey b) {
        return a != null && b != null && java.security.MessageDigest.isEqual(a.getEncoded(), b.getEncoded());
    }

    private static PublicKey fromJwk(JsonNode jwk) throws GeneralSecurityException {
        String kty = jwk.path("kty").asText("");
        if ("RSA".equals(kty)) {
            return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(big(jwk, "n"), big(jwk, "e")));
        }
        if ("DSA".equals(kty)) {
            return KeyFactory.getInstance("DSA").generatePublic(new DSAPublicKeySpec(big(jwk, "y"), big(jwk, "p"), big(jwk, "q"), big(jwk, "g")));
        }
        return null;
    }

    private static BigInteger big(JsonNode jwk, String field) {
        return new BigInteger(1, Base64.getUrlDecoder().decode(jwk.path(field).asText("")));
    }
}
