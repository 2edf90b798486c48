package io.ferry.scheduler.credentials.delegation;

import io.ferry.dev.FerryTestResource;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Copies between two SEs that want a client certificate and admit alice only (XRootD's WebDAV over HTTPS, which
 * validates proxy chains): a job submitted with alice's VOMS proxy presents her delegated proxy to both; a job
 * without one is refused by the SEs, and fails for good.
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = GridFixture.class, scope = TestResourceScope.GLOBAL)
class DelegatedCopyTest {

    static XrootdServer se;

    @TestHTTPResource(value = "/", tls = true)
    URI https;

    @Inject
    Pool pool;

    @BeforeAll
    static void startSe() throws Exception {
        TestCertificates pki = new TestCertificates(GridFixture.DIR.resolve("certificates"), GridFixture.CA, GridFixture.SERVER_CERT,
                GridFixture.SERVER_KEY, null, null);
        se = new XrootdServer(pki, Map.of(GridFixture.ALICE_DN, "alice"));
        se.mkdirs("se-a");
        se.mkdirs("se-b");
    }

    @AfterAll
    static void stopSe() throws Exception {
        se.close();
    }

    @BeforeEach
    void storageEndpoints() {
        for (String[] endpoint : new String[][]{{"CERT-A", "/se-a"}, {"CERT-B", "/se-b"}}) {
            given().auth().oauth2(admin()).contentType(ContentType.JSON)
                    .body("{\"site\":\"" + endpoint[0] + "-SITE\",\"baseUrls\":{\"https\":\"" + se.url(endpoint[1]) + "\"},\"access\":{\"open\":true}}")
                    .put("/endpoints/" + endpoint[0]).then().statusCode(anyOf(equalTo(200), equalTo(201)));
        }
    }

    static String admin() {
        return FerryTestResource.token(null, "transfer:admin");
    }

    static String job(String name, int retry) {
        return "{\"files\":[{\"sources\":[\"" + se.url("/se-a/" + name) + "\"],\"destinations\":[\"" + se.url("/se-b/out/" + name)
                + "\"]}],\"params\":{\"retry\":" + retry + ",\"retry_delay\":1,\"overwrite\":true}}";
    }

    static byte[] source(String name) throws Exception {
        byte[] data = new byte[300_000];
        new Random(name.hashCode()).nextBytes(data);
        Files.write(se.file("se-a/" + name), data);
        return data;
    }

    static JsonPath awaitEnd(String id) {
        long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
        while (System.nanoTime() < deadline) {
            JsonPath j = given().auth().oauth2(admin()).get("/jobs/" + id).then().statusCode(200).extract().jsonPath();
            if (List.of("FINISHED", "FAILED", "FINISHEDDIRTY", "CANCELED").contains(j.getString("job_state"))) {
                return j;
            }
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        }
        throw new AssertionError("job " + id + " did not end");
    }

    @Test
    void aCertificateJobCopiesWithItsOwnersDelegatedProxyAndTheProxyIsNowhereAfterwards() throws Exception {
        List<String> logged = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                logged.add(String.valueOf(r.getMessage()) + " " + (r.getThrown() == null ? "" : r.getThrown()));
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger.getLogger("").addHandler(capture);
        try {
            GridFixture.Client alice = GridFixture.Client.of(https, GridFixture.ALICE);
            alice.delegate(alice.delegationId(), Duration.ofHours(6));
            byte[] data = source("delegated.bin");

            HttpResponse<String> submitted = alice.post("/jobs", job("delegated.bin", 0));
            assertEquals(200, submitted.statusCode(), submitted.body());
            String id = submitted.body().replaceAll(".*\"job_id\":\"([^\"]+)\".*", "$1");
            JsonPath end = awaitEnd(id);

            JsonPath files = given().auth().oauth2(admin()).get("/jobs/" + id + "/files").then().extract().jsonPath();
            assertEquals("FINISHED", end.getString("job_state"), files.prettify());
            assertArrayEquals(data, Files.readAllBytes(se.file("se-b/out/delegated.bin")));
            String decisions = se.log();
            assertTrue(decisions.contains("grant https alice@") && decisions.contains("read /se-a/delegated.bin"), decisions);
            assertTrue(decisions.contains("create /se-b/out/delegated.bin"), decisions);

            // the proxy and its key: in no listing, no transfer record, no log line
            String certificate = Base64.getEncoder().encodeToString(alice.credential().certificate().getEncoded()).substring(0, 40);
            List<String> seen = new ArrayList<>(List.of(end.prettify(), files.prettify(),
                    given().auth().oauth2(admin()).get("/jobs").then().extract().asString()));
            for (Row r : pool.query("SELECT payload FROM record_outbox").execute().await().atMost(Duration.ofSeconds(5))) {
                seen.add(r.getString(0));
            }
            seen.addAll(logged);
            for (String s : seen) {
                assertFalse(s.contains("PRIVATE KEY") || s.contains("BEGIN CERTIFICATE") || s.contains(certificate), s);
            }
        } finally {
            Logger.getLogger("").removeHandler(capture);
        }
    }

    @Test
    void aJobWithoutADelegatedProxyIsRefusedBySesThatWantOneAndNotRetried() throws Exception {
        source("token.bin");
        String id = given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).contentType(ContentType.JSON)
                .body(job("token.bin", 3)).post("/jobs").then().statusCode(200).extract().path("job_id");

        JsonPath end = awaitEnd(id);
        JsonPath files = given().auth().oauth2(admin()).get("/jobs/" + id + "/files").then().extract().jsonPath();
        assertEquals("FAILED", end.getString("job_state"), files.prettify());
        assertEquals("PERMISSION_DENIED", files.getString("[0].error_code"), files.prettify());
        assertTrue(files.getString("[0].reason").contains("403"), files.prettify());
        assertEquals(0, files.getInt("[0].retry"), "a refused copy is not tried again");
        assertFalse(Files.exists(se.file("se-b/out/token.bin")));
        assertTrue(se.log().contains("deny https"), "the SE refused the copy");
    }
}
