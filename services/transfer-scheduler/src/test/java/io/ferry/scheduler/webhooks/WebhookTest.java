package io.ferry.scheduler.webhooks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Job webhooks end to end: validated at submission, recorded by the state change, signed, delivered to a receiver at
 * a public-looking address, retried through an outage with the same event id, and never sent into Ferry's own
 * network however the name resolves or the receiver answers.
 */
@QuarkusTest
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
@WithTestResource(value = WebhookFixture.class, scope = TestResourceScope.RESTRICTED_TO_CLASS)
class WebhookTest {

    static final String PROBLEM = "application/problem+json";
    static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    Pool pool;

    static String atlas() {
        return FerryTestResource.token("atlas", "transfer:submit");
    }

    static String admin() {
        return FerryTestResource.token(null, "transfer:admin");
    }

    static String secret;

    @BeforeEach
    void setUp() {
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"RAL-LCG2\",\"baseUrls\":{\"https\":\"https://ral.example/data\"},\"access\":{\"open\":true}}")
                .put("/endpoints/RAL-DISK").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"CERN-PROD\",\"baseUrls\":{\"https\":\"https://cern.example/eos\"},\"access\":{\"open\":true}}")
                .put("/endpoints/CERN-DISK").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"allowed_hosts\":[\"*.ferry.test\",\"127.0.0.1\"]}")
                .put("/webhooks/vos/atlas").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("allowed_hosts[1]"));
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"allowed_hosts\":[\"*.Ferry.test\"]}")
                .put("/webhooks/vos/atlas").then().statusCode(200).body("allowed_hosts", equalTo(List.of("*.ferry.test")));
        if (secret == null) {
            secret = given().auth().oauth2(admin()).post("/webhooks/vos/atlas/secret").then().statusCode(200).extract().path("secret");
        }
    }

    static String job(String webhook, int files) {
        StringBuilder f = new StringBuilder();
        for (int i = 0; i < files; i++) {
            f.append(i == 0 ? "" : ",").append("{\"sources\":[\"https://ral.example/data/wh/f").append(i).append("\"],\"destinations\":[\"https://cern.example/eos/wh/f")
                    .append(i).append("\"]}");
        }
        return "{\"files\":[" + f + "],\"params\":{\"webhook\":" + webhook + "}}";
    }

    static String submit(String webhook, int files) {
        return given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(job(webhook, files)).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
    }

    static void cancel(String job) {
        given().auth().oauth2(atlas()).delete("/jobs/" + job).then().statusCode(200);
    }

    static JsonPath events(String job) {
        return given().auth().oauth2(atlas()).get("/webhooks/jobs/" + job).then().statusCode(200).extract().jsonPath();
    }

    static JsonPath awaitEvents(String job, Duration within, Predicate<JsonPath> done) throws InterruptedException {
        long until = System.nanoTime() + within.toNanos();
        JsonPath last = events(job);
        while (!done.test(last)) {
            if (System.nanoTime() > until) {
                fail("the job's webhook events did not get there within " + within + ": " + last.prettify());
            }
            Thread.sleep(250);
            last = events(job);
        }
        return last;
    }

    /** The receiver's requests for this event id. */
    static List<JsonNode> received(String eventId) throws Exception {
        return WebhookFixture.receiver.received().stream().map(WebhookTest::tree)
                .filter(r -> eventId.equals(r.path("headers").path("Ferry-Event-Id").asText())).toList();
    }

    static JsonNode tree(String line) {
        try {
            return JSON.readTree(line);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void submissionsRefuseWebhooksOutsideTheVosHostsAndWebhooksThatAreNoHttpsUrls() {
        Map<String, String> refused = Map.of(
                "{\"url\":\"http://hooks.ferry.test/ok\"}", "only https",
                "{\"url\":\"https://10.0.0.7/ok\"}", "private address",
                "{\"url\":\"https://127.0.0.1:8443/ok\"}", "loopback",
                "{\"url\":\"https://[::ffff:169.254.169.254]/latest\"}", "link-local",
                "{\"url\":\"https://hooks.example.org/ok\"}", "not among the webhook hosts",
                "{\"url\":\"https://user:pw@hooks.ferry.test/ok\"}", "no user information",
                "{\"url\":\"https://hooks.ferry.test/" + "x".repeat(2100) + "\"}", "at most 2048",
                "{}", "required");
        refused.forEach((hook, why) -> given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(job(hook, 1)).post("/jobs").then()
                .statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("params.webhook.url"))
                .body("errors.message", hasItem(containsString(why))));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(job("{\"url\":\"https://hooks.ferry.test/ok\",\"file_failures\":\"yes\"}", 1))
                .post("/jobs").then().statusCode(400).body("errors.field", hasItem("params.webhook.file_failures"));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(job("\"https://hooks.ferry.test/ok\"", 1))
                .post("/jobs").then().statusCode(400).body("errors.field", hasItem("params.webhook"));
        // nothing was stored: no job of this VO names the refused hosts
        long stored = pool.preparedQuery("SELECT count(*) FROM job WHERE params LIKE '%hooks.example.org%' OR params LIKE '%10.0.0.7%'").execute()
                .await().indefinitely().iterator().next().getLong(0);
        assertEquals(0, stored);
    }

    @Test
    void settingsAreForAdministratorsAndTheSecretIsShownOnlyOnce() {
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body("{\"allowed_hosts\":[\"evil.example\"]}").put("/webhooks/vos/atlas")
                .then().statusCode(403);
        given().auth().oauth2(atlas()).post("/webhooks/vos/atlas/secret").then().statusCode(403);
        given().auth().oauth2(admin()).get("/webhooks/vos/" + "a".repeat(101)).then().statusCode(400).contentType(PROBLEM);
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"allowed_hosts\":\"x\"}").put("/webhooks/vos/atlas").then().statusCode(400);
        // Jackson would bind false as the text "false": every entry must be a string
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"allowed_hosts\":[\"ok.example.org\",false]}").put("/webhooks/vos/atlas")
                .then().statusCode(400).body("errors.field", hasItem("allowed_hosts[1]"));
        String shown = given().auth().oauth2(admin()).get("/webhooks/vos/atlas").then().statusCode(200)
                .body("has_secret", equalTo(true)).body("allowed_hosts", equalTo(List.of("*.ferry.test"))).extract().asString();
        assertFalse(shown.contains(secret.substring(6)), "the secret is never shown again");
        byte[] stored = pool.preparedQuery("SELECT secret FROM webhook_vo WHERE vo = 'atlas'").execute().await().indefinitely()
                .iterator().next().getBuffer(0).getBytes();
        assertFalse(new String(stored, StandardCharsets.ISO_8859_1).contains(secret.substring(6)), "stored sealed");
    }

    @Test
    void aJobsEndAndItsFileFailuresArePostedSignedOnceEach() throws Exception {
        String job = submit("{\"url\":\"https://hooks.ferry.test/ok?source=ferry\",\"file_failures\":true}", 2);
        // a file fails (as the engine would write it) and the job is cancelled: two events
        pool.preparedQuery("UPDATE transfer_file SET state = 'FAILED', reason = 'checksum mismatch', error_code = 'CHECKSUM_MISMATCH', attempts = 1 "
                + "WHERE job_id = $1 AND file_index = 0").execute(Tuple.of(UUID.fromString(job))).await().indefinitely();
        cancel(job);
        JsonPath events = awaitEvents(job, Duration.ofSeconds(30), e -> e.getList("status").equals(List.of("delivered", "delivered")));
        assertEquals(List.of("file.failed", "job.finished"), events.getList("kind"));
        assertEquals(List.of(1, 1), events.getList("attempts"));
        for (int i = 0; i < 2; i++) {
            String id = events.getString("[" + i + "].event_id");
            List<JsonNode> got = received(id);
            assertEquals(1, got.size(), "event " + id + " received once");
            JsonNode r = got.get(0);
            assertEquals("/ok?source=ferry", r.path("path").asText());
            assertEquals(events.getString("[" + i + "].kind"), r.path("headers").path("Ferry-Event-Type").asText());
            String body = r.path("body").asText();
            String[] signature = r.path("headers").path("Ferry-Signature").asText().split(",");
            long t = Long.parseLong(signature[0].substring(2));
            assertTrue(Math.abs(t - System.currentTimeMillis() / 1000) < 120, "signed now");
            assertEquals("v1=" + WebhookSignature.hmac(secret, t, body.getBytes(StandardCharsets.UTF_8)), signature[1]);
            assertFalse(("v1=" + WebhookSignature.hmac(secret + "x", t, body.getBytes(StandardCharsets.UTF_8))).equals(signature[1]));
            JsonNode event = JSON.readTree(body);
            assertEquals(id, event.path("event_id").asText());
            assertEquals(job, event.path("job_id").asText());
            assertEquals("atlas", event.path("vo").asText());
        }
        JsonNode failed = JSON.readTree(received(events.getString("[0].event_id")).get(0).path("body").asText());
        assertEquals("CHECKSUM_MISMATCH", failed.path("error_code").asText());
        assertEquals("https://ral.example/data/wh/f0", failed.path("source_url").asText());
        JsonNode finished = JSON.readTree(received(events.getString("[1].event_id")).get(0).path("body").asText());
        // a job with a failed file ends FAILED, its other files cancelled (FTS3's rule)
        assertEquals("FAILED", finished.path("job_state").asText());
        assertEquals(1, finished.path("files").path("FAILED").asInt());
        assertEquals(1, finished.path("files").path("CANCELED").asInt());
        // without file_failures only the end is posted; other VOs do not see the job's events
        String quiet = submit("{\"url\":\"https://hooks.ferry.test/ok\"}", 1);
        pool.preparedQuery("UPDATE transfer_file SET state = 'FAILED' WHERE job_id = $1").execute(Tuple.of(UUID.fromString(quiet))).await().indefinitely();
        cancel(quiet);
        awaitEvents(quiet, Duration.ofSeconds(30), e -> e.getList("kind").equals(List.of("job.finished")) && e.getList("status").equals(List.of("delivered")));
        given().auth().oauth2(FerryTestResource.token("cms", "transfer:submit")).get("/webhooks/jobs/" + quiet).then().statusCode(404);
    }

    @Test
    void anEventWaitsOutAMinuteLongOutageAndIsDeliveredOnceWithItsId() throws Exception {
        WebhookFixture.receiver.stop();
        String job;
        JsonPath waiting;
        try {
            job = submit("{\"url\":\"https://hooks.ferry.test/ok\"}", 1);
            cancel(job);
            Thread.sleep(60_000);
            waiting = events(job);
        } finally {
            WebhookFixture.receiver.start();
        }
        assertEquals("pending", waiting.getString("[0].status"));
        assertTrue(waiting.getInt("[0].attempts") >= 5, "tried again and again during the outage: " + waiting.prettify());
        assertTrue(waiting.getString("[0].last_error").startsWith("failed: java.net.ConnectException"), waiting.getString("[0].last_error"));
        String id = waiting.getString("[0].event_id");
        assertTrue(received(id).isEmpty());
        JsonPath done = awaitEvents(job, Duration.ofSeconds(30), e -> e.getString("[0].status").equals("delivered"));
        assertEquals(id, done.getString("[0].event_id"));
        Thread.sleep(3_000);
        assertEquals(1, received(id).size(), "delivered exactly once");
        assertEquals(id, JSON.readTree(received(id).get(0).path("body").asText()).path("event_id").asText());
    }

    @Test
    void namesResolvingIntoFerrysOwnNetworkAreNotContacted() throws Exception {
        try (ServerSocket local = new ServerSocket(0, 10, InetAddress.getByName("127.0.0.1"))) {
            local.setSoTimeout(1);
            String loop = submit("{\"url\":\"https://loop.ferry.test:" + local.getLocalPort() + "/ok\"}", 1);
            String ten = submit("{\"url\":\"https://ten.ferry.test/ok\"}", 1);
            String mixed = submit("{\"url\":\"https://mixed.ferry.test/ok\"}", 1);
            cancel(loop);
            cancel(ten);
            cancel(mixed);
            Predicate<JsonPath> tried = e -> e.getString("[0].last_error") != null;
            assertThatError(awaitEvents(loop, Duration.ofSeconds(30), tried), "resolves to 127.0.0.1, a loopback address");
            assertThatError(awaitEvents(ten, Duration.ofSeconds(30), tried), "resolves to 10.1.2.3, a private address");
            assertThatError(awaitEvents(mixed, Duration.ofSeconds(30), tried), "a unique local (private) address");
            try {
                local.accept().close();
                fail("the scheduler connected to a loopback address");
            } catch (SocketTimeoutException expected) {
                // nobody called
            }
            assertTrue(received(events(mixed).getString("[0].event_id")).isEmpty(), "not sent to the name's public address either");
            giveUp(loop, ten, mixed);
        }
    }

    @Test
    void redirectsOversizedAndSlowAnswersEndTheTryWithinTheTimeout() throws Exception {
        Map<String, String> expected = Map.of(
                "redirect", "answered HTTP 302 (redirects are not followed)",
                "oversized", "longer than 65536 bytes",
                "slow", "no answer within PT3S",
                "drip", "no answer within PT3S",
                "fail", "answered HTTP 503");
        Map<String, String> jobs = new java.util.HashMap<>();
        expected.keySet().forEach(path -> jobs.put(path, submit("{\"url\":\"https://hooks.ferry.test/" + path + "\"}", 1)));
        long started = System.nanoTime();
        jobs.values().forEach(WebhookTest::cancel);
        for (var e : expected.entrySet()) {
            JsonPath events = awaitEvents(jobs.get(e.getKey()), Duration.ofSeconds(40), ev -> ev.getString("[0].last_error") != null);
            assertThatError(events, e.getValue());
            assertEquals("pending", events.getString("[0].status"), "tried again later");
        }
        // five tries, three of them bounded by the 3 s timeout, one after the other
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(25).toNanos());
        assertEquals(1, WebhookFixture.receiver.received().stream().map(WebhookTest::tree)
                .filter(r -> r.path("path").asText().equals("/redirect")).map(r -> r.path("headers").path("Ferry-Event-Id").asText()).distinct().count());
        giveUp(jobs.values().toArray(new String[0]));
    }

    static void assertThatError(JsonPath events, String expected) {
        String error = events.getString("[0].last_error");
        assertTrue(error.contains(expected), "expected '" + expected + "' in: " + error);
        assertNull(events.get("[0].delivered_at"));
    }

    /** Ends the retries of these jobs' events, so they do not hold the delivery loop during the other tests. */
    void giveUp(String... jobs) {
        for (String job : jobs) {
            pool.preparedQuery("UPDATE webhook_event SET failed_at = now() WHERE job_id = $1 AND delivered_at IS NULL")
                    .execute(Tuple.of(UUID.fromString(job))).await().indefinitely();
        }
    }
}
