package io.ferry.scheduler.credentials.delegation;

import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** FTS3's proxy delegation over HTTPS with client certificates, and certificate submissions that record it. */
@QuarkusTest
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = GridFixture.class, scope = TestResourceScope.GLOBAL)
class DelegationTest {

    @TestHTTPResource(value = "/", tls = true)
    URI https;

    @Inject
    Pool pool;

    GridFixture.Client alice;
    GridFixture.Client bob;

    @BeforeEach
    void clients() throws Exception {
        alice = GridFixture.Client.of(https, GridFixture.ALICE);
        bob = GridFixture.Client.of(https, GridFixture.BOB);
        String admin = FerryTestResource.token(null, "transfer:admin");
        for (String[] se : new String[][]{{"DLG-A", "https://dlg-a.example/data"}, {"DLG-B", "https://dlg-b.example/data"}}) {
            given().auth().oauth2(admin).contentType(ContentType.JSON)
                    .body("{\"site\":\"" + se[0] + "-SITE\",\"baseUrls\":{\"https\":\"" + se[1] + "\"},\"access\":{\"open\":true}}")
                    .put("/endpoints/" + se[0]).then().statusCode(anyOf(equalTo(200), equalTo(201)));
        }
        for (GridFixture.Client c : new GridFixture.Client[]{alice, bob}) {
            c.delete("/delegation/" + c.delegationId());  // each test starts undelegated
        }
    }

    static String job(String name) {
        return "{\"files\":[{\"sources\":[\"https://dlg-a.example/data/" + name + "\"],\"destinations\":[\"https://dlg-b.example/data/"
                + name + "\"]}],\"params\":{}}";
    }

    @Test
    void aDelegatedProxyIsReportedUntilItsChainExpiresAndCertificateJobsRecordIt() throws Exception {
        String id = alice.delegationId();
        HttpResponse<String> none = alice.get("/delegation/" + id);
        assertEquals(200, none.statusCode());
        assertEquals("null", none.body().trim(), "FTS3's client reads JSON null as 'no delegation'");

        HttpResponse<String> csr = alice.get("/delegation/" + id + "/request");
        assertEquals(200, csr.statusCode(), csr.body());
        assertTrue(csr.body().startsWith("-----BEGIN CERTIFICATE REQUEST-----"), csr.body());
        assertEquals(id, csr.headers().firstValue("X-Delegation-ID").orElse(null));
        assertEquals(csr.body(), alice.get("/delegation/" + id + "/request").body(), "a pending request is answered again");
        Instant until = Instant.now().plus(Duration.ofHours(6));
        HttpResponse<String> put = alice.put("/delegation/" + id + "/credential", alice.credential().signRequest(csr.body(),
                Instant.now().minusSeconds(60), until));
        assertEquals(201, put.statusCode(), put.body());

        HttpResponse<String> info = alice.get("/delegation/" + id);
        Matcher t = Pattern.compile("\"termination_time\":\"(\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d)\"").matcher(info.body());
        assertTrue(t.find(), info.body());
        Instant reported = LocalDateTime.parse(t.group(1)).toInstant(ZoneOffset.UTC);
        assertTrue(Math.abs(Duration.between(reported, until).toSeconds()) <= 1, reported + " vs " + until);
        assertTrue(info.body().contains("/atlas/Role=production"), info.body());

        HttpResponse<String> submitted = alice.post("/jobs", job("delegated"));
        assertEquals(200, submitted.statusCode(), submitted.body());
        String job = submitted.body().replaceAll(".*\"job_id\":\"([^\"]+)\".*", "$1");
        HttpResponse<String> read = alice.get("/jobs/" + job);
        assertTrue(read.body().contains("\"cred_id\":\"" + id + "\""), read.body());
        assertTrue(read.body().contains("\"user_dn\":\"" + GridFixture.ALICE_DN + "\""), read.body());

        // at rest, neither the proxy nor its key is readable
        Row row = pool.preparedQuery("SELECT proxy, request_key FROM delegated_credential WHERE delegation_id = $1")
                .execute(Tuple.of(id)).await().atMost(Duration.ofSeconds(5)).iterator().next();
        assertNotNull(row.getBuffer(0));
        String stored = new String(row.getBuffer(0).getBytes(), StandardCharsets.ISO_8859_1);
        assertFalse(stored.contains("BEGIN") || stored.contains("MII"), "the proxy is stored encrypted");
        assertEquals(null, row.getBuffer(1), "the answered request's key is gone");
    }

    @Test
    void aCertificateSubmissionWithoutADelegationIs419AndStoresNothing() throws Exception {
        HttpResponse<String> r = bob.post("/jobs", job("undelegated"));

        assertEquals(419, r.statusCode(), r.body());
        assertTrue(r.body().contains("\"code\":\"DELEGATION_NEEDED\""), r.body());
        long jobs = pool.preparedQuery("SELECT count(*) FROM job WHERE user_dn = $1").execute(Tuple.of(GridFixture.BOB_DN))
                .await().atMost(Duration.ofSeconds(5)).iterator().next().getLong(0);
        assertEquals(0, jobs);
    }

    @Test
    void onlyTheOwnerOfADelegationIdMayTouchIt() throws Exception {
        String aliceId = alice.delegationId();
        alice.delegate(aliceId, Duration.ofHours(6));

        for (HttpResponse<String> r : List.of(bob.get("/delegation/" + aliceId), bob.get("/delegation/" + aliceId + "/request"),
                bob.put("/delegation/" + aliceId + "/credential", "x"), bob.delete("/delegation/" + aliceId))) {
            assertEquals(403, r.statusCode(), r.body());
            assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElse(""));
            assertTrue(r.body().contains("\"code\":\"DELEGATION_NOT_YOURS\""), r.body());
        }
        assertTrue(alice.get("/delegation/" + aliceId).body().contains("termination_time"), "bob's attempts changed nothing");
        // a token is not a certificate: it may look, not delegate
        String token = FerryTestResource.token("atlas", "transfer:submit");
        given().auth().oauth2(token).get("/delegation/" + aliceId).then().statusCode(403);
        given().auth().oauth2(token).get("/delegation/" + aliceId + "/request").then().statusCode(403)
                .body("code", equalTo("DELEGATION_NEEDS_CERTIFICATE"));
    }

    @Test
    void aProxyThatIsNotForThePendingKeyOrNotTheCallersOwnIsRefused() throws Exception {
        String id = alice.delegationId();
        assertEquals(400, alice.put("/delegation/" + id + "/credential", "-----BEGIN CERTIFICATE-----\n").statusCode(),
                "no pending request yet");
        String csr = alice.get("/delegation/" + id + "/request").body();
        Instant from = Instant.now().minusSeconds(60);

        // bob signs alice's request: a valid proxy, but not of alice's credential
        HttpResponse<String> bobs = alice.put("/delegation/" + id + "/credential", bob.credential().signRequest(csr, from, from.plusSeconds(3600 * 6)));
        assertEquals(400, bobs.statusCode(), bobs.body());
        assertTrue(bobs.body().contains("not issued by your own credential"), bobs.body());

        // alice signs a request of another key (bob's pending one)
        String other = bob.get("/delegation/" + bob.delegationId() + "/request").body();
        HttpResponse<String> wrongKey = alice.put("/delegation/" + id + "/credential", alice.credential().signRequest(other, from, from.plusSeconds(3600)));
        assertEquals(400, wrongKey.statusCode(), wrongKey.body());
        assertTrue(wrongKey.body().contains("not for the key of the pending request"), wrongKey.body());

        // alice's own, but already expired
        HttpResponse<String> expired = alice.put("/delegation/" + id + "/credential",
                alice.credential().signRequest(csr, from.minusSeconds(7200), from.minusSeconds(3600)));
        assertEquals(400, expired.statusCode(), expired.body());
        assertTrue(expired.body().contains("expired"), expired.body());

        // garbage
        HttpResponse<String> garbage = alice.put("/delegation/" + id + "/credential", "not a proxy");
        assertEquals(400, garbage.statusCode(), garbage.body());
        assertEquals("null", alice.get("/delegation/" + id).body().trim(), "nothing was stored");
    }

    @Test
    void aDeletedDelegationIsGoneAndDeletingAgainIs404() throws Exception {
        String id = alice.delegate(alice.delegationId(), Duration.ofHours(6));

        assertEquals(204, alice.delete("/delegation/" + id).statusCode());
        assertEquals("null", alice.get("/delegation/" + id).body().trim());
        assertEquals(404, alice.delete("/delegation/" + id).statusCode());
        assertEquals(419, alice.post("/jobs", job("after-delete")).statusCode());
    }

    @Test
    void aDelegationWithLessThanAnHourLeftIsNotEnoughToSubmit() throws Exception {
        String id = alice.delegate(alice.delegationId(), Duration.ofMinutes(30));

        HttpResponse<String> r = alice.post("/jobs", job("short"));
        assertEquals(419, r.statusCode(), r.body());
        assertTrue(r.body().contains("delegate again"), r.body());
        assertTrue(alice.get("/delegation/" + id).body().contains("termination_time"));
    }
}
