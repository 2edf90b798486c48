package io.ferry.identity.x509;

import eu.emi.security.authn.x509.proxy.ProxyType;
import io.ferry.identity.mapping.AccessRules;
import io.ferry.identity.model.AuthMethod;
import io.ferry.identity.model.GridCaller;
import io.ferry.identity.model.Refusal;
import io.ferry.identity.model.Refusal.Code;
import io.ferry.dev.testca.GridCredential;
import io.ferry.dev.testca.TestGridCa;
import io.ferry.dev.testca.TestVomsSigner;
import org.bouncycastle.asn1.x509.AttributeCertificate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CertificateVerifierTest {

    static final String ALICE = "/DC=org/DC=ferry/OU=Users/CN=alice";
    static final AccessRules RULES = new AccessRules(Map.of(), Map.of(),
            Map.of("/atlas", Set.of("transfer:read"), "/atlas/Role=production", Set.of("transfer:submit")),
            Map.of(ALICE, Set.of("profiles:write")));

    @TempDir
    static Path dir;

    static TestGridCa ca;
    static TestVomsSigner atlasVoms;
    static GridCredential alice;
    static GridCredential bob;
    static TrustSettings trust;
    static CertificateVerifier verifier;

    static final Instant NOW = Instant.now();
    static final Instant HOUR_AGO = NOW.minus(Duration.ofHours(1));
    static final Instant IN_A_DAY = NOW.plus(Duration.ofDays(1));

    @BeforeAll
    static void pki() throws Exception {
        ca = TestGridCa.create("/DC=org/DC=ferry/CN=Ferry Test CA", Duration.ofDays(30));
        atlasVoms = TestVomsSigner.create(ca, "atlas", "voms.ferry.local", 15001);
        alice = ca.issueUser(ALICE, HOUR_AGO, IN_A_DAY);
        bob = ca.issueUser("/DC=org/DC=ferry/OU=Users/CN=bob", HOUR_AGO, IN_A_DAY);
        ca.revoke(bob.certificate());
        ca.writeTrustAnchors(dir.resolve("certificates"));
        atlasVoms.writeLsc(dir.resolve("vomsdir"));
        trust = new TrustSettings(dir.resolve("certificates"), dir.resolve("vomsdir"), TrustSettings.CrlMode.REQUIRE,
                TrustSettings.NamespaceMode.REQUIRE, Duration.ofHours(1), Set.of(), Duration.ZERO);
        verifier = new CertificateVerifier(trust, RULES);
    }

    @AfterAll
    static void close() {
        verifier.close();
    }

    static GridCredential vomsProxy(GridCredential user, TestVomsSigner signer, ProxyType type, List<String> fqans) {
        AttributeCertificate ac = signer.attributeCertificate(user.certificate(), fqans, HOUR_AGO, NOW.plus(Duration.ofHours(12)));
        return user.proxy(type, HOUR_AGO, NOW.plus(Duration.ofHours(12)), List.of(ac));
    }

    @Test
    void anRfc3820ProxyWithVomsAttributesIsTheUserWithVoAndRoles() {
        GridCaller caller = verifier.verify(vomsProxy(alice, atlasVoms, ProxyType.RFC3820, List.of("/atlas/Role=production")).chain());

        assertEquals(ALICE, caller.dn());
        assertEquals(ALICE, caller.subject());
        assertEquals(List.of("atlas"), caller.vos());
        assertEquals(List.of("/atlas/Role=production/Capability=NULL", "/atlas/Role=NULL/Capability=NULL"), caller.fqans());
        assertEquals(Set.of("transfer:read", "transfer:submit", "profiles:write"), caller.roles());
        assertEquals(AuthMethod.CERTIFICATE, caller.method());
        assertEquals("/DC=org/DC=ferry/CN=Ferry Test CA", caller.issuer());
        assertTrue(caller.delegationId().matches("[0-9a-f]{16}"), caller.delegationId());
    }

    @Test
    void aLegacyProxyIsAccepted() {
        GridCaller caller = verifier.verify(vomsProxy(alice, atlasVoms, ProxyType.LEGACY, List.of("/atlas")).chain());

        assertEquals(ALICE, caller.dn());
        assertEquals(Set.of("transfer:read", "profiles:write"), caller.roles());
    }

    @Test
    void aPlainCertificateHasNoVo() {
        GridCaller caller = verifier.verify(alice.chain());

        assertEquals(ALICE, caller.dn());
        assertEquals(List.of(), caller.vos());
        assertEquals(Set.of("profiles:write"), caller.roles());
    }

    @Test
    void anExpiredProxyIsRefused() {
        GridCredential expired = alice.proxy(ProxyType.RFC3820, NOW.minus(Duration.ofHours(13)), NOW.minus(Duration.ofHours(1)),
                List.of());

        assertRefused(Code.CERTIFICATE_EXPIRED, expired);
    }

    @Test
    void aProxyOfAnUntrustedCaIsRefused() {
        TestGridCa other = TestGridCa.create("/DC=org/DC=elsewhere/CN=Other CA", Duration.ofDays(1));
        GridCredential mallory = other.issueUser("/DC=org/DC=elsewhere/CN=alice", HOUR_AGO, IN_A_DAY);

        assertRefused(Code.CERTIFICATE_UNTRUSTED, mallory.proxy(ProxyType.RFC3820, HOUR_AGO, IN_A_DAY, List.of()));
    }

    @Test
    void aProxyOfACaThatCopiesTheTrustedCasNameIsRefused() {
        TestGridCa lookalike = TestGridCa.create(ca.dn(), Duration.ofDays(1));
        GridCredential mallory = lookalike.issueUser(ALICE, HOUR_AGO, IN_A_DAY);

        assertRefused(Code.CERTIFICATE_UNTRUSTED, mallory.proxy(ProxyType.RFC3820, HOUR_AGO, IN_A_DAY, List.of()));
        assertRefused(Code.CERTIFICATE_UNTRUSTED, mallory);
    }

    @Test
    void aProxyOfARevokedCertificateIsRefused() {
        assertRefused(Code.CERTIFICATE_REVOKED, vomsProxy(bob, atlasVoms, ProxyType.RFC3820, List.of("/atlas")));
    }

    @Test
    void attributesOfAVoTheVomsdirDoesNotVouchForAreRefused() {
        // The ATLAS VOMS server's certificate, but signing for CMS: vomsdir/cms/ does not name it.
        TestVomsSigner wrongVo = new TestVomsSigner("cms", atlasVoms.host(), atlasVoms.port(), atlasVoms.aa());

        assertRefused(Code.VOMS_INVALID, vomsProxy(alice, wrongVo, ProxyType.RFC3820, List.of("/cms")));
    }

    @Test
    void aVoThatIsNotServedIsRefused() {
        TrustSettings cmsOnly = new TrustSettings(trust.trustAnchors(), trust.vomsdir(), trust.crls(), trust.namespaces(),
                trust.refresh(), Set.of("cms"), Duration.ZERO);
        try (CertificateVerifier cmsVerifier = new CertificateVerifier(cmsOnly, RULES)) {
            GridCredential proxy = vomsProxy(alice, atlasVoms, ProxyType.RFC3820, List.of("/atlas"));
            Refusal.RefusedException e = assertThrows(Refusal.RefusedException.class, () -> cmsVerifier.verify(proxy.chain()));
            assertEquals(Code.VO_NOT_ACCEPTED, e.refusal().code(), e.refusal().detail());
        }
    }

    @Test
    void attributesFromAnUntrustedSignerAreRefused() {
        // A host certificate of the trusted CA, but not a VOMS server the vomsdir names.
        TestVomsSigner rogue = TestVomsSigner.create(ca, "atlas", "rogue.ferry.local", 15001);

        assertRefused(Code.VOMS_INVALID, vomsProxy(alice, rogue, ProxyType.RFC3820, List.of("/atlas/Role=production")));
    }

    @Test
    void expiredAttributesAreRefused() {
        AttributeCertificate ac = atlasVoms.attributeCertificate(alice.certificate(), List.of("/atlas"),
                NOW.minus(Duration.ofHours(3)), HOUR_AGO);

        assertRefused(Code.VOMS_INVALID, alice.proxy(ProxyType.RFC3820, HOUR_AGO, IN_A_DAY, List.of(ac)));
    }

    @Test
    void aVerifiedChainIsBelievedForAWhileAndThenValidatedAgain() {
        MutableClock clock = new MutableClock(NOW);
        TrustSettings cached = new TrustSettings(trust.trustAnchors(), trust.vomsdir(), trust.crls(), trust.namespaces(),
                trust.refresh(), Set.of(), Duration.ofSeconds(60));
        try (CertificateVerifier caching = new CertificateVerifier(cached, RULES, clock)) {
            GridCredential proxy = vomsProxy(alice, atlasVoms, ProxyType.RFC3820, List.of("/atlas"));
            GridCaller first = caching.verify(proxy.chain());
            assertEquals(first, caching.verify(proxy.chain()));
            assertEquals(1, caching.validations());

            caching.verify(vomsProxy(alice, atlasVoms, ProxyType.RFC3820, List.of("/atlas")).chain());
            assertEquals(2, caching.validations(), "another proxy is another entry");

            clock.now = NOW.plusSeconds(61);
            assertEquals(first, caching.verify(proxy.chain()));
            assertEquals(3, caching.validations(), "validated again after cache-for");
        }
    }

    @Test
    void refusalsAreNotCached() {
        TrustSettings cached = new TrustSettings(trust.trustAnchors(), trust.vomsdir(), trust.crls(), trust.namespaces(),
                trust.refresh(), Set.of(), Duration.ofSeconds(60));
        try (CertificateVerifier caching = new CertificateVerifier(cached, RULES)) {
            GridCredential revoked = bob.proxy(ProxyType.RFC3820, HOUR_AGO, IN_A_DAY, List.of());
            for (int i = 0; i < 2; i++) {
                Refusal.RefusedException e = assertThrows(Refusal.RefusedException.class, () -> caching.verify(revoked.chain()));
                assertEquals(Code.CERTIFICATE_REVOKED, e.refusal().code());
            }
            assertEquals(2, caching.validations());
        }
    }

    /** A clock a test moves by hand. */
    static final class MutableClock extends java.time.Clock {
        volatile Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return java.time.ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private static void assertRefused(Code code, GridCredential credential) {
        Refusal.RefusedException e = assertThrows(Refusal.RefusedException.class, () -> verifier.verify(credential.chain()));
        assertEquals(code, e.refusal().code(), e.refusal().detail());
    }
}
