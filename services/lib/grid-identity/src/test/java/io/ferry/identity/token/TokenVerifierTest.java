package io.ferry.identity.token;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.ferry.identity.mapping.AccessRules;
import io.ferry.identity.model.AuthMethod;
import io.ferry.identity.model.GridCaller;
import io.ferry.identity.model.Refusal;
import io.ferry.identity.model.Refusal.Code;
import io.ferry.dev.testca.TestTokenIssuer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TokenVerifierTest {

    static final String IAM = "https://atlas-auth.example.org/";
    static final String CMS_IAM = "https://cms-auth.example.org/";
    static final String FERRY = "https://ferry.local/issuer";
    static final String SELF = "https://fts.example.org:8446";

    static final AccessRules RULES = new AccessRules(
            Map.of("fts", Set.of("transfer:submit", "transfer:read"), "storage.read", Set.of("transfer:read")),
            Map.of("/atlas/production", Set.of("transfer:submit"), "/atlas/ferry-admins", Set.of("transfer:admin")),
            Map.of(), Map.of());

    @TempDir
    Path dir;

    // Generated once: RSA key generation is most of what these tests would otherwise spend.
    static final RSAKey iamKey = Tokens.rsaKey("iam-2026-1");
    static final RSAKey cmsKey = Tokens.rsaKey("cms-1");
    static final RSAKey ferryKey = Tokens.rsaKey(null);
    static final RSAKey otherKey = Tokens.rsaKey("other");

    TestTokenIssuer iam;
    TokenVerifier verifier;
    Map<String, IssuerKeys> keys;

    @BeforeEach
    void setUp() throws Exception {
        iam = TestTokenIssuer.start(IAM, iamKey);
        Path cmsJwks = Files.writeString(dir.resolve("cms.jwks"), "{\"keys\":[" + cmsKey.toPublicJWK().toJSONString() + "]}");
        Path ferryPem = Files.writeString(dir.resolve("public.pem"), "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(ferryKey.toRSAPublicKey().getEncoded()) + "\n-----END PUBLIC KEY-----\n");
        verifier = verifier(List.of(
                new TrustedIssuer(IAM, iam.jwks(), Set.of(SELF, TrustedIssuer.ANY_AUDIENCE), new TrustedIssuer.VoRule.FromGroups(),
                        Optional.empty(), false),
                new TrustedIssuer(CMS_IAM, cmsJwks.toUri(), Set.of(SELF), new TrustedIssuer.VoRule.Fixed("cms"),
                        Optional.empty(), false),
                new TrustedIssuer(FERRY, ferryPem.toUri(), Set.of("ferry"), new TrustedIssuer.VoRule.FromClaim("vo"),
                        Optional.of("site"), true)), Duration.ofMinutes(10), Duration.ZERO);
    }

    private TokenVerifier verifier(List<TrustedIssuer> issuers, Duration maxAge, Duration minRefetch) {
        HttpClient http = HttpClient.newHttpClient();
        keys = new java.util.HashMap<>();
        return TokenVerifier.of(issuers, t -> keys.computeIfAbsent(t.issuer(),
                i -> new IssuerKeys(t.keys(), maxAge, minRefetch, http, Clock.systemUTC())), RULES, Duration.ofSeconds(60),
                Clock.systemUTC());
    }

    @AfterEach
    void tearDown() {
        iam.close();
    }

    @Test
    void wlcgTokenGetsItsVoFromGroupsAndRolesFromScopesAndGroups() {
        String token = Tokens.sign(iamKey, Tokens.claims(IAM, SELF)
                .claim("scope", "openid offline_access fts storage.read:/atlasdatadisk compute.create")
                .claim("wlcg.ver", "1.0").claim("wlcg.groups", List.of("/atlas", "/atlas/production")).build());

        GridCaller caller = verifier.verify(token);

        assertEquals("e7ab1a9c-user", caller.subject());
        assertEquals(List.of("atlas"), caller.vos());
        assertEquals(List.of("/atlas", "/atlas/production"), caller.fqans());
        assertEquals(Set.of("transfer:read", "transfer:submit"), caller.roles());
        assertTrue(caller.scopes().contains("storage.read:/atlasdatadisk"));
        assertEquals(AuthMethod.OAUTH2, caller.method());
        assertEquals(IAM, caller.issuer());
    }

    @Test
    void aWlcgProfileTokenOfAnIssuerWithAVoClaimTakesItsVoFromItsGroups() {
        // ./ferry token --wlcg: Ferry's dev issuer, no vo claim, the VO in wlcg.groups
        String wlcg = Tokens.sign(ferryKey, Tokens.claims(FERRY, "ferry").claim("wlcg.ver", "1.0").claim("scope", "fts")
                .claim("wlcg.groups", List.of("/atlas", "/atlas/production")).build());
        String both = Tokens.sign(ferryKey, Tokens.claims(FERRY, "ferry").claim("vo", "cms").claim("scope", "fts")
                .claim("wlcg.groups", List.of("/atlas")).build());

        GridCaller caller = verifier.verify(wlcg);

        assertEquals(List.of("atlas"), caller.vos());
        assertEquals(Set.of("transfer:read", "transfer:submit"), caller.roles());
        assertEquals(List.of("cms"), verifier.verify(both).vos());
    }

    @Test
    void aGroupCanGrantAdministration() {
        String token = Tokens.sign(iamKey, Tokens.claims(IAM, SELF).claim("wlcg.groups", List.of("/atlas", "/atlas/ferry-admins")).build());

        assertEquals(Set.of("transfer:admin"), verifier.verify(token).roles());
    }

    @Test
    void aForeignIssuerCannotGrantFerryScopesByName() {
        String token = Tokens.sign(iamKey, Tokens.claims(IAM, SELF).claim("scope", "transfer:admin profiles:admin")
                .claim("wlcg.groups", List.of("/atlas")).build());

        assertEquals(Set.of(), verifier.verify(token).roles());
    }

    @Test
    void theAnyAudienceIsAcceptedWhereConfigured() {
        String token = Tokens.sign(iamKey, Tokens.claims(IAM, TrustedIssuer.ANY_AUDIENCE).claim("scope", "fts").build());

        assertEquals(Set.of("transfer:read", "transfer:submit"), verifier.verify(token).roles());
    }

    @Test
    void anIssuerWithAFixedVoNamesIt() {
        String token = Tokens.sign(cmsKey, Tokens.claims(CMS_IAM, SELF).claim("scope", "fts").build());

        GridCaller caller = verifier.verify(token);

        assertEquals("cms", caller.vo());
        assertEquals(Set.of("transfer:read", "transfer:submit"), caller.roles());
    }

    @Test
    void ferrysOwnTokensKeepTheirScopesVoAndSite() {
        String token = Tokens.sign(ferryKey, Tokens.claims(FERRY, "ferry").claim("vo", "atlas").claim("site", "RAL-LCG2")
                .claim("scope", "transfer:submit profiles:write").build());

        GridCaller caller = verifier.verify(token);

        assertEquals("atlas", caller.vo());
        assertEquals("RAL-LCG2", caller.site());
        assertEquals(Set.of("transfer:submit", "profiles:write"), caller.roles());
    }

    @Test
    void expiredTokensAreRefused() {
        Instant past = Instant.now().minus(Duration.ofHours(2));
        String token = Tokens.sign(iamKey, Tokens.claims(IAM, SELF).issueTime(Date.from(past)).notBeforeTime(Date.from(past))
                .expirationTime(Date.from(past.plus(Duration.ofMinutes(20)))).build());

        assertRefused(Code.TOKEN_EXPIRED, token);
    }

    @Test
    void aTokenVerifiedBeforeIsStillRefusedOnceItExpires() {
        Instant issued = Instant.now();
        Instant[] now = {issued};
        Clock moving = new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return java.time.ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now[0];
            }
        };
        TokenVerifier polled = TokenVerifier.of(List.of(new TrustedIssuer(IAM, iam.jwks(), Set.of(SELF), new TrustedIssuer.VoRule.FromGroups(),
                Optional.empty(), false)), t -> new IssuerKeys(t.keys(), Duration.ofHours(10), Duration.ZERO, HttpClient.newHttpClient(),
                Clock.systemUTC()), RULES, Duration.ofSeconds(60), moving);
        String token = Tokens.sign(iamKey, Tokens.claims(IAM, SELF).issueTime(Date.from(issued)).notBeforeTime(Date.from(issued))
                .expirationTime(Date.from(issued.plus(Duration.ofMinutes(5)))).build());

        GridCaller first = polled.verify(token);
        assertEquals(first, polled.verify(token), "the second use of a token answers the same caller");
        int fetched = iam.jwksRequests();
        now[0] = issued.plus(Duration.ofMinutes(10));

        Refusal.RefusedException e = assertThrows(Refusal.RefusedException.class, () -> polled.verify(token));
        assertEquals(Code.TOKEN_EXPIRED, e.refusal().code());
        assertEquals(fetched, iam.jwksRequests(), "the issuer's keys were not fetched again");
    }

    @Test
    void tokensNotYetValidAreRefused() {
        Instant later = Instant.now().plus(Duration.ofHours(1));
        String token = Tokens.sign(iamKey, Tokens.claims(IAM, SELF).notBeforeTime(Date.from(later))
                .expirationTime(Date.from(later.plus(Duration.ofHours(1)))).build());

        assertRefused(Code.TOKEN_NOT_YET_VALID, token);
    }

    @Test
    void tokensForAnotherAudienceAreRefused() {
        assertRefused(Code.TOKEN_WRONG_AUDIENCE, Tokens.sign(iamKey, Tokens.claims(IAM, "https://other-fts.example.org").build()));
        assertRefused(Code.TOKEN_WRONG_AUDIENCE, Tokens.sign(iamKey, Tokens.claims(IAM, null).build()));
        // The any-audience is accepted only from issuers configured to accept it.
        assertRefused(Code.TOKEN_WRONG_AUDIENCE, Tokens.sign(cmsKey, Tokens.claims(CMS_IAM, TrustedIssuer.ANY_AUDIENCE).build()));
    }

    @Test
    void tokensOfUnknownIssuersAreRefused() {
        assertRefused(Code.TOKEN_UNKNOWN_ISSUER, Tokens.sign(iamKey, Tokens.claims("https://evil.example.org/", SELF).build()));
    }

    @Test
    void unsignedTokensAreRefused() {
        JWTClaimsSet claims = Tokens.claims(IAM, SELF).claim("scope", "fts").build();
        String header = Base64URL.encode("{\"alg\":\"none\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8)).toString();
        String body = Base64URL.encode(claims.toString().getBytes(StandardCharsets.UTF_8)).toString();

        assertRefused(Code.TOKEN_UNSIGNED, header + "." + body + ".");
        // A signature part does not make alg: none acceptable.
        assertRefused(Code.TOKEN_UNSIGNED, header + "." + body + ".c2lnbmF0dXJl");
    }

    @Test
    void hmacTokensKeyedWithThePublicKeyAreRefused() throws Exception {
        // The classic confusion attack: HS256 with the issuer's public key (as served in its JWKS) as the secret.
        byte[] publicKey = iamKey.toRSAPublicKey().getEncoded();
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.HS256).keyID(iamKey.getKeyID()).build(),
                Tokens.claims(IAM, SELF).claim("scope", "fts").build());
        jwt.sign(new MACSigner(publicKey));

        assertRefused(Code.TOKEN_ALGORITHM_NOT_ALLOWED, jwt.serialize());
    }

    @Test
    void tokensWithABadSignatureAreRefused() {
        assertRefused(Code.TOKEN_BAD_SIGNATURE, Tokens.sign(otherKey, iamKey.getKeyID(), Tokens.claims(IAM, SELF).build()));

        String good = Tokens.sign(iamKey, Tokens.claims(IAM, SELF).claim("scope", "storage.read:/").build());
        String[] parts = good.split("\\.");
        String tampered = parts[0] + "." + Base64URL.encode(Tokens.claims(IAM, SELF).claim("scope", "fts").build().toString()
                .getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertRefused(Code.TOKEN_BAD_SIGNATURE, tampered);
    }

    @Test
    void malformedTokensAreRefused() {
        assertRefused(Code.TOKEN_MALFORMED, "not-a-token");
        assertRefused(Code.TOKEN_MALFORMED, "e30.e30");
        assertRefused(Code.TOKEN_MALFORMED, "%%%.e30.c2ln");
        assertRefused(Code.TOKEN_MALFORMED, Tokens.sign(iamKey, Tokens.claims(IAM, SELF).subject(null).build()));
        assertRefused(Code.TOKEN_MALFORMED, Tokens.sign(iamKey, Tokens.claims(IAM, SELF).expirationTime(null).build()));
    }

    @Test
    void aRotatedKeyIsFetchedWithoutARestart() throws Exception {
        try (TestTokenIssuer issuer = TestTokenIssuer.start("https://rotating-iam.example.org/")) {
            TokenVerifier rotating = verifier(List.of(new TrustedIssuer(issuer.issuer(), issuer.jwks(), Set.of(SELF),
                    new TrustedIssuer.VoRule.FromGroups(), Optional.empty(), false)), Duration.ofMinutes(10), Duration.ZERO);
            String before = issuer.mint(issuer.wlcgClaims("alice", SELF, "fts", List.of("/atlas"), Duration.ofHours(1)).build());
            assertEquals(List.of("atlas"), rotating.verify(before).vos());
            int fetched = issuer.jwksRequests();

            issuer.rotate();
            String after = issuer.mint(issuer.wlcgClaims("alice", SELF, "fts", List.of("/atlas"), Duration.ofHours(1)).build());

            assertEquals(Set.of("transfer:read", "transfer:submit"), rotating.verify(after).roles());
            assertEquals(fetched + 1, issuer.jwksRequests(), "one fetch for the new key id");
            assertEquals(Set.of("transfer:read", "transfer:submit"), rotating.verify(after).roles());
            assertEquals(fetched + 1, issuer.jwksRequests(), "the new key is cached");
            Refusal.RefusedException old = assertThrows(Refusal.RefusedException.class, () -> rotating.verify(before));
            assertEquals(Code.TOKEN_UNKNOWN_KEY, old.refusal().code(), "the retired key is gone");
        }
    }

    @Test
    void unknownKeyIdsRefetchAtMostOncePerInterval() {
        verifier = verifier(List.of(new TrustedIssuer(IAM, iam.jwks(), Set.of(SELF), new TrustedIssuer.VoRule.FromGroups(),
                Optional.empty(), false)), Duration.ofMinutes(10), Duration.ofHours(1));
        assertEquals("e7ab1a9c-user", verifier.verify(Tokens.sign(iamKey, Tokens.claims(IAM, SELF).build())).subject());
        int fetched = iam.jwksRequests();

        for (int i = 0; i < 5; i++) {
            assertRefused(Code.TOKEN_UNKNOWN_KEY, Tokens.sign(otherKey, "made-up-" + i, Tokens.claims(IAM, SELF).build()));
        }

        assertEquals(fetched, iam.jwksRequests(), "the first fetch was within the interval: no fetch for made-up key ids");
    }

    @Test
    void anUnreachableIssuerIsReportedAsSuch() {
        verifier = verifier(List.of(new TrustedIssuer(IAM, URI.create("http://127.0.0.1:1/jwks"), Set.of(SELF),
                new TrustedIssuer.VoRule.FromGroups(), Optional.empty(), false)), Duration.ofMinutes(10), Duration.ZERO);

        assertRefused(Code.TOKEN_ISSUER_KEYS_UNAVAILABLE, Tokens.sign(iamKey, Tokens.claims(IAM, SELF).build()));
    }

    @Test
    void keysForEncryptionAreNotSigningKeys() throws Exception {
        String jwks = "{\"keys\":[" + new RSAKey.Builder(iamKey.toRSAPublicKey()).keyID("enc")
                .keyUse(com.nimbusds.jose.jwk.KeyUse.ENCRYPTION).build().toJSONString() + "]}";
        assertEquals(List.of(), IssuerKeys.parse(jwks));
    }

    @Test
    void keysFromPlainHttpElsewhereThanLoopbackAreRefusedAtConfiguration() {
        assertThrows(IllegalArgumentException.class, () -> new TrustedIssuer(IAM, URI.create("http://iam.example.org/jwk"),
                Set.of(SELF), new TrustedIssuer.VoRule.FromGroups(), Optional.empty(), false));
    }

    private void assertRefused(Code code, String token) {
        Refusal.RefusedException e = assertThrows(Refusal.RefusedException.class, () -> verifier.verify(token));
        assertEquals(code, e.refusal().code(), e.refusal().detail());
        assertTrue(!e.refusal().detail().contains(token), "the refusal never repeats the token");
    }
}
