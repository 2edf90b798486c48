package io.ferry.scheduler.credentials.delegation;

import eu.emi.security.authn.x509.proxy.ProxyType;
import io.ferry.dev.testca.GridCredential;
import io.ferry.dev.testca.TestGridCa;
import io.ferry.dev.testca.TestVomsSigner;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The scheduler over HTTPS with client certificates, and a grid PKI for it under {@code target/grid-test}: a CA
 * (also the nginx SEs' CA), an ATLAS VOMS signer, the server certificate for localhost, and VOMS proxies of two
 * ATLAS production users, alice and bob. Applies to every test (HTTPS beside plain HTTP changes nothing else).
 */
public class GridFixture implements QuarkusTestResourceLifecycleManager {

    static final Path DIR = Path.of("target", "grid-test").toAbsolutePath();
    static final Path CA = DIR.resolve("ca.pem");
    static final Path SERVER_CERT = DIR.resolve("server.pem");
    static final Path SERVER_KEY = DIR.resolve("server.key");
    static final Path ALICE = DIR.resolve("alice.proxy");
    static final Path BOB = DIR.resolve("bob.proxy");
    static final String ALICE_DN = "/DC=org/DC=ferry/OU=Users/CN=alice";
    static final String BOB_DN = "/DC=org/DC=ferry/OU=Users/CN=bob";

    @Override
    public Map<String, String> start() {
        try {
            Instant now = Instant.now();
            Instant from = now.minus(Duration.ofHours(1));
            Instant until = now.plus(Duration.ofDays(1));
            TestGridCa ca = TestGridCa.create("/DC=org/DC=ferry/CN=Ferry Scheduler Test CA", Duration.ofDays(2));
            Files.createDirectories(DIR);
            Files.writeString(CA, GridCredential.pem(ca.certificate()));
            ca.writeTrustAnchors(DIR.resolve("certificates"));
            TestVomsSigner voms = TestVomsSigner.create(ca, "atlas", "voms.ferry.local", 15001);
            voms.writeLsc(DIR.resolve("vomsdir"));
            ca.issueHost("/DC=org/DC=ferry/CN=localhost", from, until, "localhost", "127.0.0.1").writeCertificateAndKey(SERVER_CERT, SERVER_KEY);
            for (var user : List.of(Map.entry(ALICE_DN, ALICE), Map.entry(BOB_DN, BOB))) {
                GridCredential u = ca.issueUser(user.getKey(), from, until);
                var ac = voms.attributeCertificate(u.certificate(), List.of("/atlas/Role=production"), from, until);
                u.proxy(ProxyType.RFC3820, from, until, List.of(ac)).writeProxy(user.getValue());
            }
            return Map.ofEntries(Map.entry("quarkus.http.test-ssl-port", "0"), Map.entry("quarkus.http.insecure-requests", "enabled"),
                    Map.entry("quarkus.tls.key-store.pem.0.cert", SERVER_CERT.toString()),
                    Map.entry("quarkus.tls.key-store.pem.0.key", SERVER_KEY.toString()),
                    Map.entry("ferry.identity.x509.enabled", "true"),
                    Map.entry("ferry.identity.x509.trust-anchors", DIR.resolve("certificates").toString()),
                    Map.entry("ferry.identity.x509.vomsdir", DIR.resolve("vomsdir").toString()),
                    Map.entry("ferry.identity.grants.atlas-production.fqan", "/atlas/Role=production"),
                    Map.entry("ferry.identity.grants.atlas-production.roles", "transfer:read,transfer:submit"),
                    // the engine trusts the nginx SEs' certificates (issued by the same CA) and has no client certificate of its own
                    Map.entry("ferry.scheduler.engine.tls.ca-certificates", CA.toString()));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void stop() {
    }

    /** HTTPS calls to the scheduler presenting a user's proxy (as the FTS3 client does with --cert/--key). */
    record Client(URI base, GridCredential credential, HttpClient http) {

        static Client of(URI base, Path proxy) throws Exception {
            GridCredential c = GridCredential.load(proxy, proxy);
            X509Certificate ca;
            try (var in = Files.newInputStream(CA)) {
                ca = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            }
            return new Client(base, c, HttpClient.newBuilder().sslContext(c.clientTls(ca)).build());
        }

        HttpResponse<String> get(String path) throws Exception {
            return send(HttpRequest.newBuilder(base.resolve(path)).GET());
        }

        HttpResponse<String> put(String path, String body) throws Exception {
            return send(HttpRequest.newBuilder(base.resolve(path)).PUT(HttpRequest.BodyPublishers.ofString(body)));
        }

        HttpResponse<String> post(String path, String json) throws Exception {
            return send(HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(json)));
        }

        HttpResponse<String> delete(String path) throws Exception {
            return send(HttpRequest.newBuilder(base.resolve(path)).DELETE());
        }

        private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
            // as FTS3's client: JSON asked for on every call
            return http.send(b.header("Accept", "application/json").build(), HttpResponse.BodyHandlers.ofString());
        }

        /** The caller's delegation id, as fts-rest-delegate learns it: from /whoami. */
        String delegationId() throws Exception {
            HttpResponse<String> whoami = get("/whoami");
            var m = Pattern.compile("\"delegation_id\":\"([0-9a-f]+)\"").matcher(whoami.body());
            if (whoami.statusCode() != 200 || !m.find()) {
                throw new IllegalStateException("whoami: " + whoami.statusCode() + " " + whoami.body());
            }
            return m.group(1);
        }

        /** Delegates as fts-rest-delegate does: the request, signed by this user's proxy, put back; the delegation id. */
        String delegate(String id, Duration lifetime) throws Exception {
            HttpResponse<String> csr = get("/delegation/" + id + "/request");
            if (csr.statusCode() != 200) {
                throw new IllegalStateException("request: " + csr.statusCode() + " " + csr.body());
            }
            HttpResponse<String> put = put("/delegation/" + id + "/credential",
                    credential.signRequest(csr.body(), Instant.now().minusSeconds(60), Instant.now().plus(lifetime)));
            if (put.statusCode() != 201) {
                throw new IllegalStateException("credential: " + put.statusCode() + " " + put.body());
            }
            return id;
        }
    }
}
