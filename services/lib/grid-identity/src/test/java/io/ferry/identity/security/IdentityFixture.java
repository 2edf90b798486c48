package io.ferry.identity.security;

import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import eu.emi.security.authn.x509.proxy.ProxyType;
import io.ferry.dev.testca.GridCredential;
import io.ferry.dev.testca.TestGridCa;
import io.ferry.dev.testca.TestTokenIssuer;
import io.ferry.dev.testca.TestVomsSigner;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the Quarkus test trusts: an IAM-like issuer (its JWKS served on 127.0.0.1, its signing key in a file for the
 * test to mint tokens with) and a grid PKI (CA, VOMS signer, the server's HTTPS certificate, and proxies for the
 * test to present), all under {@code target/identity-test}.
 */
public class IdentityFixture implements QuarkusTestResourceLifecycleManager {

    static final String ISSUER = "https://atlas-auth.example.org/";
    static final Path DIR = Path.of("target", "identity-test").toAbsolutePath();
    static final Path SIGNING_KEY = DIR.resolve("signing-key.json");
    static final Path CA = DIR.resolve("ca.pem");
    static final Path ALICE = DIR.resolve("alice-production.proxy");
    static final Path EXPIRED = DIR.resolve("expired.proxy");
    static final Path UNTRUSTED = DIR.resolve("untrusted.proxy");
    static final String ALICE_DN = "/DC=org/DC=ferry/OU=Users/CN=alice";

    private TestTokenIssuer issuer;

    @Override
    public Map<String, String> start() {
        try {
            RSAKey key = new RSAKeyGenerator(2048).keyID("iam-1").generate();
            Files.createDirectories(SIGNING_KEY.getParent());
            Files.writeString(SIGNING_KEY, key.toJSONString());
            issuer = TestTokenIssuer.start(ISSUER, key);
            Map<String, String> config = new HashMap<>(Map.of("ferry.identity.issuers.iam.url", ISSUER,
                    "ferry.identity.issuers.iam.jwks", issuer.jwks().toString()));
            config.putAll(pki());
            return config;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Map<String, String> pki() throws Exception {
        Instant now = Instant.now();
        Instant from = now.minus(Duration.ofHours(1));
        Instant until = now.plus(Duration.ofDays(1));
        TestGridCa ca = TestGridCa.create("/DC=org/DC=ferry/CN=Ferry Test CA", Duration.ofDays(2));
        Files.writeString(CA, GridCredential.pem(ca.certificate()));
        ca.writeTrustAnchors(DIR.resolve("certificates"));
        TestVomsSigner voms = TestVomsSigner.create(ca, "atlas", "voms.ferry.local", 15001);
        voms.writeLsc(DIR.resolve("vomsdir"));
        GridCredential server = ca.issueHost("/DC=org/DC=ferry/CN=localhost", from, until, "localhost", "127.0.0.1");
        server.writeCertificateAndKey(DIR.resolve("server.pem"), DIR.resolve("server.key"));

        GridCredential alice = ca.issueUser(ALICE_DN, from, until);
        var ac = voms.attributeCertificate(alice.certificate(), List.of("/atlas/Role=production"), from, until);
        alice.proxy(ProxyType.RFC3820, from, until, List.of(ac)).writeProxy(ALICE);
        alice.proxy(ProxyType.RFC3820, now.minus(Duration.ofHours(13)), from, List.of()).writeProxy(EXPIRED);
        TestGridCa other = TestGridCa.create("/DC=org/DC=elsewhere/CN=Other CA", Duration.ofDays(2));
        other.issueUser("/DC=org/DC=elsewhere/CN=mallory", from, until).proxy(ProxyType.RFC3820, from, until, List.of())
                .writeProxy(UNTRUSTED);
        return Map.of("quarkus.tls.key-store.pem.0.cert", DIR.resolve("server.pem").toString(),
                "quarkus.tls.key-store.pem.0.key", DIR.resolve("server.key").toString(),
                "ferry.identity.x509.enabled", "true",
                "ferry.identity.x509.trust-anchors", DIR.resolve("certificates").toString(),
                "ferry.identity.x509.vomsdir", DIR.resolve("vomsdir").toString(),
                "ferry.identity.x509.crls", "require");
    }

    @Override
    public void stop() {
        if (issuer != null) {
            issuer.close();
        }
    }

    /** A token of this issuer for the test service, with {@code groups}, valid from {@code notBefore} for an hour. */
    static String token(List<String> groups, Instant notBefore) throws Exception {
        RSAKey key = RSAKey.parse(Files.readString(SIGNING_KEY));
        JWTClaimsSet claims = new JWTClaimsSet.Builder().issuer(ISSUER).audience("https://fts.example.org:8446")
                .subject("alice-sub").claim("scope", "openid fts").claim("wlcg.groups", groups)
                .issueTime(Date.from(notBefore)).expirationTime(Date.from(notBefore.plus(Duration.ofHours(1)))).build();
        return TestTokenIssuer.sign(key, key.getKeyID(), claims);
    }
}
