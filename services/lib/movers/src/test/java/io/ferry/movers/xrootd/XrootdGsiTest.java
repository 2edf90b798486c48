package io.ferry.movers.xrootd;

import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import io.ferry.movers.ClientCertificate;
import io.ferry.movers.MoverException;
import io.ferry.movers.StorageAccess;
import io.ferry.movers.TlsSockets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A gsi-protected XRootD server (certificates of the test CA): Ferry's client authenticates with a client certificate. */
class XrootdGsiTest {

    static final String DN = "/DC=org/DC=ferry/CN=transfer-scheduler";
    static Path dir;
    static TestCertificates pki;
    static XrootdServer server;
    static XrootdAccess access;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("ferry-xrootd-gsi");
        pki = TestCertificates.create(dir);
        // the client certificate's DN is mapped to alice, whom alone the server's authorization admits
        server = new XrootdServer(pki, Map.of(DN, "alice"), XrootdServer.Options.plain().withGsi());
        access = new XrootdAccess(Duration.ofSeconds(30), TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty()));
    }

    @AfterAll
    static void stop() throws Exception {
        if (access != null) {
            access.close();
        }
        if (server != null) {
            server.close();
        }
        DirectoryTrees.delete(dir);
    }

    static ClientCertificate client() throws Exception {
        X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(pki.clientCertificate())));
        String pem = Files.readString(dir.resolve("client.key"));
        String body = pem.substring(pem.indexOf('\n') + 1, pem.indexOf("-----END"));
        return new ClientCertificate(KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getMimeDecoder().decode(body))), List.of(cert));
    }

    @Test
    void aClientCertificateAuthenticatesWithGsi() throws Exception {
        XrootdAccessTest.write(server.file("/gsi/f"), 1234, 3);
        URI u = URI.create(server.rootUrl("root", "/gsi/f"));
        try {
            assertEquals(1234, access.stat(u, null, client(), "prepare").size());
        } catch (MoverException e) {
            throw new AssertionError(e.getMessage() + "\n" + server.log(), e);
        }
        assertTrue(server.log().contains("login as alice"), "the server mapped the certificate's DN: " + server.log());
        server.mkdirs("/gsi/up");
        try (StorageAccess.Upload up = access.write(URI.create(server.rootUrl("root", "/gsi/up/g")), 2, client(), "transfer")) {
            up.write(ByteBuffer.wrap(new byte[] {1, 2}));
            up.commit();
        }
        assertEquals(2, Files.size(server.file("/gsi/up/g")));
    }

    @Test
    void withoutACertificateTheServerIsNotSpokenTo() {
        MoverException e = assertThrows(MoverException.class, () -> access.stat(URI.create(server.rootUrl("root", "/gsi/f")), null, null, "prepare"));
        assertEquals(MoverException.Code.PERMISSION_DENIED, e.code());
        assertTrue(e.getMessage().contains("gsi"), e.getMessage());
    }

    @Test
    void anRfc3820ProxyOfTheCertificateAuthenticatesAsItsUser() throws Exception {
        ClientCertificate user = client();
        eu.emi.security.authn.x509.proxy.ProxyCertificateOptions options =
                new eu.emi.security.authn.x509.proxy.ProxyCertificateOptions(user.chain().toArray(X509Certificate[]::new));
        options.setLifetime(3600, java.util.concurrent.TimeUnit.SECONDS);
        eu.emi.security.authn.x509.proxy.ProxyCertificate proxy = eu.emi.security.authn.x509.proxy.ProxyGenerator.generate(options, user.key());
        ClientCertificate delegated = new ClientCertificate(proxy.getPrivateKey(), List.of(proxy.getCertificateChain()));
        XrootdAccessTest.write(server.file("/gsi/p"), 77, 3);
        long before = access.connectionsOpened();
        assertEquals(77, access.stat(URI.create(server.rootUrl("root", "/gsi/p")), null, delegated, "prepare").size());
        assertEquals(before + 1, access.connectionsOpened(), "a session of its own: the proxy is another credential");
    }

    @Test
    void aCertificateOfAnUnknownCaIsRefused() throws Exception {
        io.ferry.dev.testca.TestGridCa other = io.ferry.dev.testca.TestGridCa.create("/DC=org/DC=elsewhere/CN=Other CA", Duration.ofDays(1));
        io.ferry.dev.testca.GridCredential stranger = other.issueUser("/DC=org/DC=elsewhere/CN=stranger",
                java.time.Instant.now().minusSeconds(60), java.time.Instant.now().plusSeconds(3600));
        ClientCertificate foreign = new ClientCertificate(stranger.key(), List.of(stranger.chain()));
        MoverException e = assertThrows(MoverException.class,
                () -> access.stat(URI.create(server.rootUrl("root", "/gsi/f")), null, foreign, "prepare"));
        assertEquals(MoverException.Code.PERMISSION_DENIED, e.code(), e.getMessage());
    }

    @Test
    void aServerWhoseCertificateTheMoverDoesNotTrustIsNotGivenTheCertificate() throws Exception {
        try (XrootdAccess trustingOnlyTheJdk = new XrootdAccess(Duration.ofSeconds(30),
                TlsSockets.storageTls(Optional.empty(), Optional.empty(), Optional.empty()))) {
            MoverException e = assertThrows(MoverException.class,
                    () -> trustingOnlyTheJdk.stat(URI.create(server.rootUrl("root", "/gsi/f")), null, client(), "prepare"));
            assertEquals(MoverException.Code.PERMISSION_DENIED, e.code(), e.getMessage());
            assertTrue(e.getMessage().contains("PKIX") || e.getMessage().contains("certification path"), e.getMessage());
        }
    }

    @Test
    void theCaHashIsOpensslsSubjectHash() throws Exception {
        X509Certificate ca = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(Files.readAllBytes(pki.caCertificate())));
        String expected;
        try (var files = Files.list(pki.caDirectory())) {
            expected = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".0")).findFirst().orElseThrow().replace(".0", "");
        }
        assertEquals(expected, OpensslNameHash.of(ca.getSubjectX500Principal()), "openssl x509 -hash names the CA file");
        assertEquals(OpensslNameHash.of(new javax.security.auth.x500.X500Principal("CN=mixed case")),
                OpensslNameHash.of(new javax.security.auth.x500.X500Principal("CN=  Mixed   Case  ")), "canonical: case and spaces");
    }
}
