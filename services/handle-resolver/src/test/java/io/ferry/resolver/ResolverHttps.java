package io.ferry.resolver;

import io.ferry.dev.testca.GridCredential;
import io.ferry.dev.testca.TestGridCa;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The resolver over HTTPS beside plain HTTP, asking clients for a certificate (as CNRI's server does for client-side
 * certificate authentication): a test CA under {@code target/resolver-tls} issues the server's certificate for
 * localhost. Applies to every test; HTTPS beside HTTP changes nothing else.
 */
public class ResolverHttps implements QuarkusTestResourceLifecycleManager {

    static final Path DIR = Path.of("target", "resolver-tls").toAbsolutePath();
    private static volatile X509Certificate ca;

    @Override
    public Map<String, String> start() {
        try {
            Instant now = Instant.now();
            TestGridCa authority = TestGridCa.create("/DC=org/DC=ferry/CN=Ferry Resolver Test CA", Duration.ofDays(2));
            Files.createDirectories(DIR);
            authority.writeTrustAnchors(DIR.resolve("certificates"));
            Files.createDirectories(DIR.resolve("vomsdir"));
            Path cert = DIR.resolve("server.pem");
            Path key = DIR.resolve("server.key");
            authority.issueHost("/DC=org/DC=ferry/CN=localhost", now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(1)), "localhost", "127.0.0.1")
                    .writeCertificateAndKey(cert, key);
            ca = authority.certificate();
            return Map.of("quarkus.http.test-ssl-port", "0", "quarkus.http.insecure-requests", "enabled",
                    "quarkus.tls.key-store.pem.0.cert", cert.toString(), "quarkus.tls.key-store.pem.0.key", key.toString(),
                    "ferry.identity.x509.enabled", "true",
                    "ferry.identity.x509.trust-anchors", DIR.resolve("certificates").toString(),
                    "ferry.identity.x509.vomsdir", DIR.resolve("vomsdir").toString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
    }

    /** TLS for a client presenting {@code credential} and trusting the server's CA. */
    static javax.net.ssl.SSLContext clientTls(GridCredential credential) throws Exception {
        return credential.clientTls(ca);
    }
}
