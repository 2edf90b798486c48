package io.ferry.identity.testca;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A WLCG-profile token issuer for the dev stack and tests, like an experiment's IAM: its JWKS served on
 * 127.0.0.1, tokens signed with its current key, and {@link #rotate()} to change keys while services run.
 */
public final class TestTokenIssuer implements AutoCloseable {

    private final String issuer;
    private final HttpServer server;
    private final AtomicInteger jwksRequests = new AtomicInteger();
    private final AtomicInteger keyNumber = new AtomicInteger();
    private volatile RSAKey key;

    private TestTokenIssuer(String issuer, HttpServer server) {
        this.issuer = issuer;
        this.server = server;
    }

    /** An issuer whose tokens say {@code iss: issuer}, serving {@code /jwks} on a free port of 127.0.0.1. */
    public static TestTokenIssuer start(String issuer) throws IOException {
        return start(issuer, null);
    }

    /** The same, signing with {@code key} (private, with a key id) until the first {@link #rotate()}; null: a new key. */
    public static TestTokenIssuer start(String issuer, RSAKey key) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        TestTokenIssuer t = new TestTokenIssuer(issuer, server);
        if (key == null) {
            t.rotate();
        } else {
            t.key = key;
        }
        server.createContext("/jwks", exchange -> {
            t.jwksRequests.incrementAndGet();
            byte[] body = new JWKSet(t.key.toPublicJWK()).toString(true).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/jwk-set+json");
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return t;
    }

    public String issuer() {
        return issuer;
    }

    /** Where services fetch its keys ({@code ferry.identity.issuers.<name>.jwks}). */
    public URI jwks() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/jwks");
    }

    /** How often the key set was fetched. */
    public int jwksRequests() {
        return jwksRequests.get();
    }

    /** Replaces the signing key with a new one under a new key id, which the JWKS serves alone from now on. */
    public synchronized String rotate() {
        try {
            key = new RSAKeyGenerator(2048).keyID("key-" + keyNumber.incrementAndGet()).generate();
            return key.getKeyID();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot make an RSA key", e);
        }
    }

    /**
     * WLCG Common JWT Profile claims: {@code wlcg.ver}, {@code sub}, {@code aud}, space-separated {@code scope},
     * {@code wlcg.groups}, valid from now for {@code lifetime} (negative: already expired).
     */
    public JWTClaimsSet.Builder wlcgClaims(String subject, String audience, String scope, List<String> groups, Duration lifetime) {
        Instant now = Instant.now();
        Instant exp = now.plus(lifetime);
        Instant iat = lifetime.isNegative() ? exp.minus(Duration.ofMinutes(20)) : now;
        return new JWTClaimsSet.Builder().issuer(issuer).subject(subject).audience(audience).claim("wlcg.ver", "1.0")
                .claim("scope", scope).claim("wlcg.groups", groups).jwtID(UUID.randomUUID().toString())
                .issueTime(Date.from(iat)).notBeforeTime(Date.from(iat)).expirationTime(Date.from(exp));
    }

    /** {@code claims} signed (RS256) with the current key, its key id in the header. */
    public String mint(JWTClaimsSet claims) {
        return sign(key, key.getKeyID(), claims);
    }

    /** {@code claims} signed (RS256) with {@code signing}, naming {@code kid} (null: none) in the header. */
    public static String sign(RSAKey signing, String kid, JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(kid)
                    .type(JOSEObjectType.JWT).build(), claims);
            jwt.sign(new RSASSASigner(signing));
            return jwt.serialize();
        } catch (JOSEException e) {
            throw new IllegalStateException("cannot sign a token", e);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
