package io.ferry.identity.security;

import io.ferry.dev.testca.GridCredential;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@QuarkusTestResource(IdentityFixture.class)
class GridAuthenticationTest {

    @Test
    void aWlcgTokenIsTheCallerWithItsVoAndRoles() throws Exception {
        String token = IdentityFixture.token(List.of("/atlas", "/atlas/production"), Instant.now());

        given().auth().oauth2(token).get("/identity-test/whoami").then().statusCode(200)
                .body("subject", equalTo("alice-sub"))
                .body("vos", equalTo(List.of("atlas")))
                .body("method", equalTo("OAUTH2"))
                .body("roles", hasItems("transfer:read", "transfer:submit"));
        given().auth().oauth2(token).get("/identity-test/submit").then().statusCode(200)
                .body(equalTo("submitted for atlas by alice-sub"));
    }

    @Test
    void aTokenWithoutTheProductionGroupMayNotSubmit() throws Exception {
        String token = IdentityFixture.token(List.of("/atlas"), Instant.now());

        given().auth().oauth2(token).get("/identity-test/submit").then().statusCode(403);
    }

    @Test
    void anExpiredTokenIsA401ThatSaysSo() throws Exception {
        String token = IdentityFixture.token(List.of("/atlas"), Instant.now().minus(Duration.ofHours(3)));

        given().auth().oauth2(token).get("/identity-test/whoami").then().statusCode(401)
                .contentType("application/problem+json")
                .header("WWW-Authenticate", "Bearer")
                .body("code", equalTo("TOKEN_EXPIRED"))
                .body("detail", containsString("expired at"));
    }

    @Test
    void aTokenOfAnUnknownIssuerIsA401ThatSaysSo() {
        String unsigned = "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJodHRwczovL2V2aWwuZXhhbXBsZS5vcmcvIn0.c2ln";

        given().auth().oauth2(unsigned).get("/identity-test/whoami").then().statusCode(401)
                .body("code", equalTo("TOKEN_UNKNOWN_ISSUER"));
    }

    @TestHTTPResource(value = "/identity-test", tls = true)
    URI https;

    @Test
    void aVomsProxyOverTlsIsTheUserWithVoFqansAndRoles() throws Exception {
        HttpResponse<String> whoami = getWithCertificate(IdentityFixture.ALICE, "/whoami");

        assertEquals(200, whoami.statusCode(), whoami.body());
        assertTrue(whoami.body().contains("\"dn\":\"" + IdentityFixture.ALICE_DN + "\""), whoami.body());
        assertTrue(whoami.body().contains("\"vos\":[\"atlas\"]"), whoami.body());
        assertTrue(whoami.body().contains("/atlas/Role=production/Capability=NULL"), whoami.body());
        assertTrue(whoami.body().contains("\"method\":\"CERTIFICATE\""), whoami.body());
        HttpResponse<String> submit = getWithCertificate(IdentityFixture.ALICE, "/submit");
        assertEquals(200, submit.statusCode());
        assertEquals("submitted for atlas by " + IdentityFixture.ALICE_DN, submit.body());
    }

    @Test
    void anExpiredProxyIsA401ThatSaysSo() throws Exception {
        HttpResponse<String> r = getWithCertificate(IdentityFixture.EXPIRED, "/whoami");

        assertEquals(401, r.statusCode());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(""));
        assertTrue(r.body().contains("\"code\":\"CERTIFICATE_EXPIRED\""), r.body());
    }

    @Test
    void aProxyOfAnUntrustedCaIsA401ThatSaysSo() throws Exception {
        HttpResponse<String> r = getWithCertificate(IdentityFixture.UNTRUSTED, "/whoami");

        assertEquals(401, r.statusCode());
        assertTrue(r.body().contains("\"code\":\"CERTIFICATE_UNTRUSTED\""), r.body());
    }

    @Test
    void httpsWithoutACertificateIsAnonymous() throws Exception {
        HttpResponse<String> r = get(HttpClient.newBuilder().sslContext(tls(null)).build(), "/whoami");

        assertEquals(401, r.statusCode());
        assertTrue(r.body().contains("\"code\":\"UNAUTHENTICATED\""), r.body());
    }

    private HttpResponse<String> getWithCertificate(Path proxy, String path) throws Exception {
        return get(HttpClient.newBuilder().sslContext(tls(GridCredential.load(proxy, proxy))).build(), path);
    }

    private HttpResponse<String> get(HttpClient client, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create(https + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A client that trusts the test CA and presents {@code credential} (none if null), expired or not. */
    private static SSLContext tls(GridCredential credential) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (var in = java.nio.file.Files.newInputStream(IdentityFixture.CA)) {
            trust.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        KeyManager[] keyManagers = null;
        if (credential != null) {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("proxy", credential.key(), new char[0], credential.chain());
            // SunX509 does not skip expired certificates: the server, not the client, is to refuse them.
            KeyManagerFactory kmf = KeyManagerFactory.getInstance("SunX509");
            kmf.init(keys, new char[0]);
            keyManagers = kmf.getKeyManagers();
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers, tmf.getTrustManagers(), null);
        return context;
    }

    @Test
    void noCredentialIsAnonymous() {
        given().get("/identity-test/whoami").then().statusCode(401).body("code", equalTo("UNAUTHENTICATED"));
    }
}
