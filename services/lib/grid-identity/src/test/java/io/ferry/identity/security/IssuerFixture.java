package io.ferry.identity.security;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

/**
 * An IAM-like issuer for the Quarkus test: its JWKS served on 127.0.0.1, its signing key in a file under
 * {@code target/} for the test to mint tokens with.
 */
public class IssuerFixture implements QuarkusTestResourceLifecycleManager {

    static final String ISSUER = "https://atlas-auth.example.org/";
    static final Path SIGNING_KEY = Path.of("target", "identity-test", "signing-key.json");

    private HttpServer server;

    @Override
    public Map<String, String> start() {
        try {
            RSAKey key = new RSAKeyGenerator(2048).keyID("iam-1").generate();
            Files.createDirectories(SIGNING_KEY.getParent());
            Files.writeString(SIGNING_KEY, key.toJSONString());
            byte[] jwks = new JWKSet(key.toPublicJWK()).toString(true).getBytes(StandardCharsets.UTF_8);
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/jwks", exchange -> {
                exchange.sendResponseHeaders(200, jwks.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(jwks);
                }
            });
            server.start();
            return Map.of("ferry.identity.issuers.iam.url", ISSUER,
                    "ferry.identity.issuers.iam.jwks", "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    /** A token of this issuer for the test service, with {@code groups}, valid from {@code notBefore} for an hour. */
    static String token(List<String> groups, Instant notBefore) throws Exception {
        RSAKey key = RSAKey.parse(Files.readString(SIGNING_KEY));
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(ISSUER).audience("https://fts.example.org:8446")
                .subject("alice-sub").claim("scope", "openid fts").claim("wlcg.groups", groups)
                .issueTime(Date.from(notBefore)).expirationTime(Date.from(notBefore.plus(Duration.ofHours(1)))).build();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(), claims);
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }
}
