package io.ferry.identity.token;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import io.ferry.dev.testca.TestTokenIssuer;

import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.UUID;

/** Signs tokens for the tests, as an issuer would. */
final class Tokens {

    private Tokens() {
    }

    static RSAKey rsaKey(String kid) {
        try {
            return new RSAKeyGenerator(2048).keyID(kid).generate();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Claims valid for an hour from now, for {@code issuer} and {@code audience}. */
    static JWTClaimsSet.Builder claims(String issuer, String audience) {
        Instant now = Instant.now();
        return new JWTClaimsSet.Builder().issuer(issuer).audience(audience).subject("e7ab1a9c-user")
                .jwtID(UUID.randomUUID().toString()).issueTime(Date.from(now)).notBeforeTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofHours(1))));
    }

    static String sign(RSAKey key, JWTClaimsSet claims) {
        return sign(key, key.getKeyID(), claims);
    }

    /** Signed with {@code key} but naming {@code kid} in the header (null: none). */
    static String sign(RSAKey key, String kid, JWTClaimsSet claims) {
        return TestTokenIssuer.sign(key, kid, claims);
    }
}
