package io.ferry.scheduler.credentials.delegation;

import eu.emi.security.authn.x509.proxy.ProxyType;
import io.ferry.dev.testca.GridCredential;
import io.ferry.dev.testca.TestGridCa;
import org.junit.jupiter.api.Test;

import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProxyDelegationTest {

    @Test
    void aSignedRequestIsCheckedAgainstThePendingKeyItsIssuerAndItsLifetime() {
        Instant now = Instant.now();
        TestGridCa ca = TestGridCa.create("/DC=org/DC=ferry/CN=Unit CA", Duration.ofDays(1));
        GridCredential proxy = ca.issueUser("/DC=org/DC=ferry/CN=alice", now.minusSeconds(60), now.plus(Duration.ofHours(20)))
                .proxy(ProxyType.RFC3820, now.minusSeconds(60), now.plus(Duration.ofHours(12)), List.of());
        ProxyDelegation.Request pending = ProxyDelegation.newRequest();
        ProxyDelegation.Request other = ProxyDelegation.newRequest();
        Instant until = now.plus(Duration.ofHours(6));

        List<X509Certificate> signed = ProxyDelegation.certificates(proxy.signRequest(pending.csrPem(), now.minusSeconds(60), until));
        assertNull(ProxyDelegation.refusal(signed, ProxyDelegation.privateKey(pending.keyPem()), now));
        assertEquals(until.getEpochSecond(), ProxyDelegation.expiry(signed).getEpochSecond());
        String full = ProxyDelegation.fullProxy(signed, pending.keyPem());
        assertEquals(signed, ProxyDelegation.certificates(full));
        assertEquals(ProxyDelegation.privateKey(pending.keyPem()), ProxyDelegation.privateKey(full));
        assertTrue(pending.toString().contains("redacted") && !pending.toString().contains("KEY-----"));

        assertTrue(ProxyDelegation.refusal(signed, ProxyDelegation.privateKey(other.keyPem()), now).contains("not for the key"));
        assertTrue(ProxyDelegation.refusal(List.of(signed.get(0), signed.get(2)), ProxyDelegation.privateKey(pending.keyPem()), now)
                .contains("not signed by"));
        assertTrue(ProxyDelegation.refusal(signed.subList(0, 1), ProxyDelegation.privateKey(pending.keyPem()), now).contains("1 certificate"));
        assertTrue(ProxyDelegation.refusal(signed, ProxyDelegation.privateKey(pending.keyPem()), until.plusSeconds(1)).contains("expired"));
    }
}
