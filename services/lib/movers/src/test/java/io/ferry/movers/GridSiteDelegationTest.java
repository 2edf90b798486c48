package io.ferry.movers;

import eu.emi.security.authn.x509.CrlCheckingMode;
import eu.emi.security.authn.x509.NamespaceCheckingMode;
import eu.emi.security.authn.x509.ProxySupport;
import eu.emi.security.authn.x509.ValidationResult;
import eu.emi.security.authn.x509.impl.CRLParameters;
import eu.emi.security.authn.x509.impl.CertificateUtils;
import eu.emi.security.authn.x509.impl.OpensslCertChainValidator;
import eu.emi.security.authn.x509.impl.RevocationParametersExt;
import eu.emi.security.authn.x509.impl.ValidatorParams;
import eu.emi.security.authn.x509.proxy.ProxyUtils;
import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.GridSiteDelegationServer;
import io.ferry.dev.TestCertificates;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ferry's delegation client against GridSite's own delegation service (mod_gridsite's gridsite-delegation.cgi in
 * Apache httpd): the proxy the service stores is a valid proxy of the user's delegated proxy, over the user's
 * certificate, issued by the test CA — what an SE that pulls with {@code Credential: gridsite} would present.
 */
class GridSiteDelegationTest {

    static Path dir;
    static TestCertificates pki;
    static GridSiteDelegationServer gridsite;
    static HttpWire wire;
    static X509Certificate user;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(GridSiteDelegationServer.runsHere(), "skipped: Debian's mod_gridsite reads its CAs only from /etc/grid-security, mounted per test in a namespace of its own, which needs root");
        dir = Files.createTempDirectory("ferry-delegation-pki");
        pki = TestCertificates.create(dir);
        gridsite = new GridSiteDelegationServer(pki);
        wire = new HttpWire(Duration.ofSeconds(10), Duration.ofSeconds(30),
                TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty()));
        user = TestProxies.user(pki);
    }

    @AfterAll
    static void stop() throws Exception {
        if (gridsite != null) {
            gridsite.close();
        }
        if (dir != null) {
            DirectoryTrees.delete(dir);
        }
    }

    static ClientCertificate delegatedProxy(Duration lifetime) throws Exception {
        return TestProxies.of(pki, lifetime);
    }

    @Test
    void theServiceStoresAValidProxyOfTheUsersProxyUnderTheUsersName() throws Exception {
        ClientCertificate proxy = delegatedProxy(Duration.ofHours(3));
        GridSiteDelegation.Delegated d = GridSiteDelegation.delegate(wire, URI.create(gridsite.url()), proxy);
        assertEquals(1, d.version(), "Debian's gridsite-delegation.cgi speaks delegation-1 (it knows no getVersion)");
        assertTrue(d.delegationId().matches("[0-9a-f]{16}"), d.delegationId());

        List<Path> stored = gridsite.storedProxies();
        assertEquals(1, stored.size(), stored + "\n" + gridsite.log());
        Path file = stored.get(0);
        assertEquals(d.delegationId(), file.getParent().getFileName().toString(), "kept under the delegation ID the service chose");
        assertTrue(java.net.URLDecoder.decode(file.getParent().getParent().getFileName().toString(), StandardCharsets.UTF_8)
                .endsWith("/DC=org/DC=ferry/CN=transfer-scheduler"), "kept under the user's DN: " + file);
        String pem = Files.readString(file);
        List<X509Certificate> chain = certificates(pem);
        assertEquals(3, chain.size(), "new proxy, delegated proxy, user certificate");
        assertEquals(proxy.chain().get(0), chain.get(1));
        assertEquals(user, chain.get(2));
        X509Certificate delegated = chain.get(0);
        assertTrue(ProxyUtils.isProxy(delegated));
        assertEquals(proxy.chain().get(0).getSubjectX500Principal(), delegated.getIssuerX500Principal());
        delegated.verify(proxy.chain().get(0).getPublicKey());
        assertFalse(delegated.getNotAfter().after(proxy.chain().get(0).getNotAfter()), "never outlives the proxy it comes from");
        assertEquals(ProxyUtils.getOriginalUserDN(proxy.chain().toArray(X509Certificate[]::new)),
                ProxyUtils.getOriginalUserDN(chain.toArray(X509Certificate[]::new)));

        // the key the service kept is the new proxy's: it can act as the user, and Ferry never saw that key
        RSAPrivateCrtKey kept = (RSAPrivateCrtKey) key(pem);
        assertEquals(((RSAPublicKey) delegated.getPublicKey()).getModulus(), kept.getModulus());
        assertFalse(java.util.Arrays.equals(proxy.key().getEncoded(), kept.getEncoded()));

        ValidationResult valid = validator().validate(chain.toArray(X509Certificate[]::new));
        assertTrue(valid.isValid(), "canl validates the stored chain against the test CA: " + valid);
    }

    @Test
    void aProxyAboutToEndIsNotDelegated() throws Exception {
        ClientCertificate proxy = delegatedProxy(Duration.ofSeconds(90));
        MoverException e = assertThrows(MoverException.class, () -> GridSiteDelegation.delegate(wire, URI.create(gridsite.url()), proxy));
        assertEquals(MoverException.Code.PERMISSION_DENIED, e.code());
        assertTrue(e.getMessage().contains("too soon to delegate"), e.getMessage());
    }

    @Test
    void theNewProxyLivesTwelveHoursAtMostAndEndsBeforeItsParent() throws Exception {
        ClientCertificate longLived = delegatedProxy(Duration.ofHours(48));
        String csr = csrOf(longLived);
        Instant now = Instant.now();
        X509Certificate[] signed = ProxySigning.sign(csr, longLived, now);
        assertEquals(Date.from(now.plus(ProxySigning.MAX_LIFETIME)).getTime() / 1000, signed[0].getNotAfter().getTime() / 1000);

        ClientCertificate shortLived = delegatedProxy(Duration.ofHours(1));
        X509Certificate[] shorter = ProxySigning.sign(csr, shortLived, now);
        assertEquals(shortLived.chain().get(0).getNotAfter().getTime() / 1000 - 60, shorter[0].getNotAfter().getTime() / 1000);
        assertArrayEquals(shortLived.chain().toArray(), List.of(shorter).subList(1, shorter.length).toArray());
    }

    @Test
    void aDelegationEndpointOverPlainHttpIsRefusedBeforeAnyRequest() throws Exception {
        ClientCertificate proxy = delegatedProxy(Duration.ofHours(1));
        MoverException e = assertThrows(MoverException.class,
                () -> GridSiteDelegation.delegate(wire, URI.create("http://127.0.0.1:" + gridsite.port + "/gridsite-delegation"), proxy));
        assertEquals(MoverException.Code.PERMISSION_DENIED, e.code());
    }

    /** A certificate request as a delegation service makes one (its own key pair). */
    static String csrOf(ClientCertificate anyone) throws Exception {
        java.security.KeyPairGenerator g = java.security.KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        java.security.KeyPair pair = g.generateKeyPair();
        org.bouncycastle.pkcs.PKCS10CertificationRequest req = new org.bouncycastle.pkcs.jcajce.JcaPKCS10CertificationRequestBuilder(
                new javax.security.auth.x500.X500Principal("CN=proxy"), pair.getPublic())
                .build(new org.bouncycastle.operator.jcajce.JcaContentSignerBuilder("SHA256withRSA").build(pair.getPrivate()));
        return "-----BEGIN CERTIFICATE REQUEST-----\n" + java.util.Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(req.getEncoded())
                + "\n-----END CERTIFICATE REQUEST-----\n";
    }

    static OpensslCertChainValidator validator() {
        RevocationParametersExt revocation = new RevocationParametersExt(CrlCheckingMode.IGNORE, new CRLParameters());
        return new OpensslCertChainValidator(pki.caDirectory().toString(), true, NamespaceCheckingMode.IGNORE, -1,
                new ValidatorParams(revocation, ProxySupport.ALLOW), false);
    }

    static List<X509Certificate> certificates(String pem) throws Exception {
        Matcher m = Pattern.compile("-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----", Pattern.DOTALL).matcher(pem);
        List<X509Certificate> out = new ArrayList<>();
        while (m.find()) {
            out.add(CertificateUtils.loadCertificate(new ByteArrayInputStream(m.group().getBytes(StandardCharsets.US_ASCII)),
                    CertificateUtils.Encoding.PEM));
        }
        return out;
    }

    static PrivateKey key(String pem) throws Exception {
        Matcher m = Pattern.compile("-----BEGIN (RSA )?PRIVATE KEY-----.*?-----END (RSA )?PRIVATE KEY-----", Pattern.DOTALL).matcher(pem);
        assertTrue(m.find(), "the stored file holds the service's key");
        return CertificateUtils.loadPrivateKey(new ByteArrayInputStream(m.group().getBytes(StandardCharsets.US_ASCII)),
                CertificateUtils.Encoding.PEM, null);
    }
}
