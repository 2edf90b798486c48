package io.ferry.scheduler.credentials;

import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.ferry.scheduler.credentials.TokenSeal;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bearer tokens toward storage end to end: each file's own per SE, exchanged before they expire or obtained from the
 * submitter's, an issuer down or refusing, and no token to be found anywhere afterwards.
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class StorageTokensTest extends EngineFixture {

    @Test
    void twoSesThatWantBearerTokensGetEachFilesOwnAndTheTokensAppearNowhereAfterwards() throws Exception {
        CapturedLogs logs = CapturedLogs.start();
        try {
            for (String[] se : new String[][]{{"TOK-A", "/tok-a"}, {"TOK-B", "/tok-b"}}) {
                given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"TOK-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url(se[1])
                                + "\"},\"access\":{\"open\":true},\"allowServiceIdentity\":false}")
                        .put("/endpoints/" + se[0]).then().statusCode(anyOf(equalTo(200), equalTo(201)));
                given().auth().oauth2(admin()).get("/endpoints/" + se[0]).then().body("allowServiceIdentity", equalTo(false));
            }
            String tokens = ",\"source_tokens\":[\"" + SOURCE_TOKEN + "\"],\"destination_tokens\":[\"" + DEST_TOKEN + "\"]";
            List<String> withTokens = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                String adler = write("/tok-a/run/f" + i, 200_000 + i, 900 + i);
                String f = file("/tok-a/run/f" + i, "/tok-b/run/out/f" + i, adler);
                withTokens.add(f.substring(0, f.length() - 1) + tokens + "}");
            }
            String good = submit(vo("atlas"), withTokens, "{\"verify_checksum\":\"both\"}");

            String plain = write("/tok-a/run/plain", 10_000, 910);
            String none = submit(vo("atlas"), List.of(file("/tok-a/run/plain", "/tok-b/run/out/plain", plain)), "{\"retry\":2,\"retry_delay\":0}");
            String swapped = ",\"source_tokens\":[\"" + SOURCE_TOKEN + "\"],\"destination_tokens\":[\"" + SOURCE_TOKEN + "\"]";
            String f = file("/tok-a/run/plain", "/tok-b/run/out/swapped", plain);
            String wrong = submit(vo("atlas"), List.of(f.substring(0, f.length() - 1) + swapped + "}"), "{\"retry\":2,\"retry_delay\":0}");

            for (String token : List.of(SOURCE_TOKEN, DEST_TOKEN)) {
                assertEquals(0, count("SELECT count(*) FROM job_token WHERE position(convert_to('" + token + "', 'UTF8') in sealed) > 0"),
                        "tokens are stored sealed");
            }

            // a list that does not match the sources is refused, and nothing of it is stored
            long jobsBefore = count("SELECT count(*) FROM job");
            String refusal = given().auth().oauth2(vo("atlas")).contentType(ContentType.JSON).body("{\"files\":[" + withTokens.get(0).replace(
                            "\"source_tokens\":[\"" + SOURCE_TOKEN + "\"]", "\"source_tokens\":[\"" + SOURCE_TOKEN + "\",\"" + SOURCE_TOKEN + "\"]") + "]}")
                    .post("/jobs").then().statusCode(400).contentType("application/problem+json").body("errors[0].field", equalTo("files[0].source_tokens"))
                    .extract().asString();
            assertEquals(jobsBefore, count("SELECT count(*) FROM job"));

            awaitJob(vo("atlas"), good, Duration.ofSeconds(30), "FINISHED", "FINISHEDDIRTY", "FAILED");
            JsonPath done = files(vo("atlas"), good);
            assertTrue(done.getList("file_state").stream().allMatch("FINISHED"::equals), done.prettify());
            for (int i = 0; i < 3; i++) {
                assertArrayEquals(Files.readAllBytes(nginx.file("/tok-a/run/f" + i)), Files.readAllBytes(nginx.file("/tok-b/run/out/f" + i)));
            }

            awaitJob(vo("atlas"), none, Duration.ofSeconds(30), "FAILED");
            JsonPath refused = files(vo("atlas"), none);
            assertEquals("PERMISSION_DENIED", refused.getString("[0].error_code"));
            assertEquals("prepare", refused.getString("[0].error_phase"));
            assertTrue(refused.getString("[0].reason").contains("TOK-A accepts only the user's own credential (allowServiceIdentity is false)"),
                    refused.getString("[0].reason"));
            awaitJob(vo("atlas"), wrong, Duration.ofSeconds(30), "FAILED");
            JsonPath denied = files(vo("atlas"), wrong);
            assertEquals("PERMISSION_DENIED", denied.getString("[0].error_code"));
            assertTrue(denied.getString("[0].reason").contains("HTTP 401"), denied.getString("[0].reason"));
            assertFalse(Files.exists(nginx.file("/tok-b/run/out/plain")));
            assertFalse(Files.exists(nginx.file("/tok-b/run/out/swapped")));

            // the tokens appear nowhere: not in what clients read, what is recorded, or what was logged
            StringBuilder seen = new StringBuilder(refusal);
            for (String id : List.of(good, none, wrong)) {
                seen.append(given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().statusCode(200).extract().asString());
                seen.append(given().auth().oauth2(vo("atlas")).get("/jobs/" + id + "/files").then().statusCode(200).extract().asString());
                for (Object fileId : files(vo("atlas"), id).getList("file_id")) {
                    seen.append(given().auth().oauth2(vo("atlas")).get("/jobs/" + id + "/files/" + fileId + "/retries").then().statusCode(200)
                            .extract().asString());
                }
                seen.append(eventStream(vo("atlas"), id));
            }
            seen.append(given().auth().oauth2(vo("atlas")).queryParam("limit", 1000).get("/jobs").then().statusCode(200).extract().asString());
            await().atMost(Duration.ofSeconds(10)).until(() -> count("SELECT count(*) FROM record_outbox WHERE payload LIKE '%" + good + "%'") >= 3);
            for (String table : List.of("record_outbox", "job", "transfer_file", "file_retry", "file_token")) {
                seen.append(pool.query("SELECT t::text FROM " + table + " t").execute().await().atMost(Duration.ofSeconds(10))
                        .stream().map(r -> r.getString(0)).reduce("", String::concat));
            }
            org.jboss.logging.Logger.getLogger("io.ferry.scheduler.engine").info("log capture probe");
            assertTrue(logs.text().contains("log capture probe"), "the capture sees what the scheduler logs");
            seen.append(logs.text());
            assertTrue(seen.toString().contains(good), "the views looked at were the job's");
            for (String token : List.of(SOURCE_TOKEN, DEST_TOKEN)) {
                assertFalse(seen.toString().contains(token), "a token leaked");
                // nor a large part of it (its signature)
                assertFalse(seen.toString().contains(token.substring(token.lastIndexOf('.') + 1)), "a token's signature leaked");
            }
            await().atMost(Duration.ofSeconds(10)).until(() -> count("SELECT count(*) FROM job_token t JOIN job j USING (job_id) "
                    + "WHERE j.job_id IN ('" + good + "', '" + none + "', '" + wrong + "')") == 0);  // ended jobs forget their tokens
        } finally {
            logs.close();
            given().auth().oauth2(admin()).delete("/endpoints/TOK-A");
            given().auth().oauth2(admin()).delete("/endpoints/TOK-B");
        }
    }

    @Inject
    TokenSeal seal;

    @Test
    void aTokenNearItsExpiryIsExchangedAtItsIssuerForAFreshOneWhileItsFileWaits() throws Exception {
        String token = issuer.mint(issuer.wlcgClaims("rucio", "https://wlcg.cern.ch/jwt/v1/any", "storage.read:/ storage.modify:/", List.of(),
                Duration.ofMinutes(5)).build());
        Path down = nginx.root.resolve("se-c.down");
        Files.writeString(down, "maintenance");  // NGX-C answers 503: the file waits, retried
        CapturedLogs logs = CapturedLogs.start();
        try {
            String adler = write("/se-c/refresh/f", 20_000, 930);
            String f = file("/se-c/refresh/f", "/se-b/refresh/f", adler);
            String tokens = ",\"source_tokens\":[\"" + token + "\"],\"destination_tokens\":[\"" + token + "\"]}";
            String other = file("/se-c/refresh/f", "/se-b/refresh/f-unmanaged", adler);
            // FTS3's unmanaged_tokens: the submitter manages the token's lifetime, Ferry uses it as given
            String unmanaged = submit(vo("atlas"), List.of(other.substring(0, other.length() - 1) + tokens),
                    "{\"retry\":20,\"retry_delay\":1,\"unmanaged_tokens\":true}");
            String id = submit(vo("atlas"), List.of(f.substring(0, f.length() - 1) + tokens), "{\"retry\":20,\"retry_delay\":1}");
            await().atMost(Duration.ofSeconds(20)).until(() -> count("SELECT count(*) FROM job_token WHERE job_id = '" + id
                    + "' AND expires_at > now() + interval '1 hour'") == 1);
            assertTrue(issuer.exchanges() >= 1);
            Row kept = pool.query("SELECT sealed, token_no FROM job_token WHERE job_id = '" + unmanaged + "'").execute().await()
                    .atMost(Duration.ofSeconds(10)).iterator().next();
            assertEquals(token, seal.open(kept.getBuffer(0).getBytes(), UUID.fromString(unmanaged), kept.getInteger(1)),
                    "the unmanaged job's token was not exchanged, though it expires as soon and was there first");
            Row row = pool.query("SELECT sealed, token_no FROM job_token WHERE job_id = '" + id + "'").execute().await()
                    .atMost(Duration.ofSeconds(10)).iterator().next();
            String fresh = seal.open(row.getBuffer(0).getBytes(), UUID.fromString(id), row.getInteger(1));
            assertFalse(fresh.equals(token), "the token was replaced");
            JWTClaimsSet claims = SignedJWT.parse(fresh).getJWTClaimsSet();
            assertEquals("rucio", claims.getSubject());
            assertEquals("storage.read:/ storage.modify:/", claims.getStringClaim("scope"), "the same scope as before");
            assertEquals(WithEngine.EXCHANGING_ISSUER, claims.getIssuer());

            Files.delete(down);
            awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
            assertEquals("FINISHED", files(vo("atlas"), id).getString("[0].file_state"));
            awaitJob(vo("atlas"), unmanaged, Duration.ofSeconds(30), "FINISHED", "FAILED");
            assertEquals("FINISHED", files(vo("atlas"), unmanaged).getString("[0].file_state"), "its token, still valid, is used as given");
            for (String t : List.of(token, fresh)) {
                assertFalse(logs.text().contains(t.substring(t.lastIndexOf('.') + 1)), "a token was logged");
            }
        } finally {
            logs.close();
            Files.deleteIfExists(down);
        }
    }

    /** xch-a and xch-b: SEs that accept only tokens the issuer hands out from its users' tokens, never Ferry's identity. */
    static void registerExchangeSes() {
        for (String[] se : new String[][]{{"XCH-A", "/xch-a"}, {"XCH-B", "/xch-b"}}) {
            given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"XCH-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url(se[1])
                            + "\"},\"access\":{\"open\":true},\"allowServiceIdentity\":false}")
                    .put("/endpoints/" + se[0]).then().statusCode(anyOf(equalTo(200), equalTo(201)));
        }
    }

    static void removeExchangeSes() {
        given().auth().oauth2(admin()).delete("/endpoints/XCH-A");
        given().auth().oauth2(admin()).delete("/endpoints/XCH-B");
    }

    static String submitterToken(String user) {
        return issuer.mint(issuer.wlcgClaims(user, "https://wlcg.cern.ch/jwt/v1/any", "fts", List.of(), Duration.ofHours(1)).build());
    }

    /** The issuer's request log for {@code user} from {@code from} on. */
    static List<String> askedFor(String user, int from) {
        return issuer.asked().subList(from, issuer.asked().size()).stream().filter(a -> a.split(" ")[1].equals(user)).toList();
    }

    /** Every row of the tables that hold anything of a job, as text. */
    private String allRows() {
        StringBuilder rows = new StringBuilder();
        for (String table : List.of("record_outbox", "job", "transfer_file", "file_retry", "file_token", "job_token",
                "job_submitter_token", "job_storage_token")) {
            rows.append(pool.query("SELECT t::text FROM " + table + " t").execute().await().atMost(Duration.ofSeconds(10))
                    .stream().map(r -> r.getString(0)).reduce("", String::concat));
        }
        return rows.toString();
    }

    private static String signature(String token) {
        return token.substring(token.lastIndexOf('.') + 1);
    }

    @Test
    void aTokenSubmittedJobWithoutFileTokensRunsWithOneTokenPerSeAndSideObtainedFromTheSubmittersWhichAppearsNowhere() throws Exception {
        String submitter = submitterToken("alice");
        CapturedLogs logs = CapturedLogs.start();
        registerExchangeSes();
        try {
            List<String> files = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                files.add(file("/xch-a/run/f" + i, "/xch-b/run/out/f" + i, write("/xch-a/run/f" + i, 50_000 + i, 950 + i)));
            }
            int before = issuer.asked().size();
            String id = submit(submitter, files, "{\"verify_checksum\":\"both\"}");

            awaitJob(submitter, id, Duration.ofSeconds(30), "FINISHED", "FINISHEDDIRTY", "FAILED");
            JsonPath done = files(submitter, id);
            assertTrue(done.getList("file_state").stream().allMatch("FINISHED"::equals), done.prettify());
            for (int i = 0; i < 6; i++) {
                // the SEs accept only the tokens obtained for the job: the submitter's own would have been refused
                assertArrayEquals(Files.readAllBytes(nginx.file("/xch-a/run/f" + i)), Files.readAllBytes(nginx.file("/xch-b/run/out/f" + i)));
            }
            List<String> asked = askedFor("alice", before);
            assertEquals("exchange alice fts offline_access null", asked.get(0), "the submitter's token, once, for a long-lived one: " + asked);
            assertEquals(Set.of("refresh alice storage.read:/run " + exchangeAudience(), "refresh alice storage.modify:/run/out " + exchangeAudience()),
                    new HashSet<>(asked.subList(1, asked.size())), "one token per SE and side, for the files' common path there: " + asked);
            assertEquals(3, asked.size(), "six files, two SE/side pairs: three requests in all, not one per file: " + asked);

            StringBuilder seen = new StringBuilder();
            seen.append(given().auth().oauth2(submitter).get("/jobs/" + id).then().statusCode(200).extract().asString());
            seen.append(given().auth().oauth2(submitter).get("/jobs/" + id + "/files").then().statusCode(200).extract().asString());
            seen.append(eventStream(submitter, id));
            seen.append(given().auth().oauth2(submitter).queryParam("limit", 1000).get("/jobs").then().statusCode(200).extract().asString());
            await().atMost(Duration.ofSeconds(10)).until(() -> count("SELECT count(*) FROM record_outbox WHERE payload LIKE '%" + id + "%'") >= 6);
            seen.append(allRows()).append(logs.text());
            assertTrue(seen.toString().contains(id), "the views looked at were the job's");
            for (String token : List.of(submitter, EXCHANGED.get("alice storage.read:/run"), EXCHANGED.get("alice storage.modify:/run/out"))) {
                assertFalse(seen.toString().contains(signature(token)), "a token leaked");
            }
            assertEquals(0, count("SELECT count(*) FROM job_submitter_token WHERE job_id = '" + id + "'"), "a finished job forgets the tokens");
            assertEquals(0, count("SELECT count(*) FROM job_storage_token WHERE job_id = '" + id + "'"));
        } finally {
            logs.close();
            removeExchangeSes();
        }
    }

    @Test
    void filesWaitWhileTheIssuerIsDownAndFinishOnceItAnswersWithoutUsingTheirRetries() throws Exception {
        String submitter = submitterToken("bob");
        registerExchangeSes();
        issuer.unavailable(true);
        try {
            List<String> files = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                files.add(file("/xch-a/run/b" + i, "/xch-b/run/out/b" + i, write("/xch-a/run/b" + i, 20_000 + i, 70 + i)));
            }
            int before = issuer.asked().size();
            String id = submit(submitter, files, "{\"retry\":0}");
            await().atMost(Duration.ofSeconds(15)).until(() -> askedFor("bob", before).size() >= 3);
            await().atMost(Duration.ofSeconds(10)).until(() -> count("SELECT count(*) FROM transfer_file WHERE job_id = '" + id
                    + "' AND reason LIKE '%could not%' OR job_id = '" + id + "' AND reason LIKE '%tried again%'") > 0);
            assertEquals(0, count("SELECT count(*) FROM transfer_file WHERE job_id = '" + id + "' AND state = 'FAILED'"),
                    "an issuer that does not answer fails nothing, even with retry 0");
            assertEquals(1, count("SELECT count(*) FROM job_submitter_token WHERE job_id = '" + id + "' AND failures > 0"), "the backoff is the job's");
            // the submitter's token is in the database only sealed
            assertFalse(allRows().contains(signature(submitter)));

            issuer.unavailable(false);
            awaitJob(submitter, id, Duration.ofSeconds(30), "FINISHED", "FINISHEDDIRTY", "FAILED");
            JsonPath done = files(submitter, id);
            assertTrue(done.getList("file_state").stream().allMatch("FINISHED"::equals), done.prettify());
            for (int i = 0; i < 3; i++) {
                assertArrayEquals(Files.readAllBytes(nginx.file("/xch-a/run/b" + i)), Files.readAllBytes(nginx.file("/xch-b/run/out/b" + i)));
            }
            assertEquals(0, count("SELECT count(*) FROM file_retry f JOIN transfer_file t USING (file_id) WHERE t.job_id = '" + id + "'"),
                    "waiting for the issuer is no failed attempt");
        } finally {
            issuer.unavailable(false);
            removeExchangeSes();
        }
    }

    @Test
    void aRefusalByTheIssuerFailsTheFilesWithItsAnswerWhileTheSubmissionWasAccepted() throws Exception {
        issuer.refuseExchangesOf("mallory");
        String submitter = submitterToken("mallory");
        registerExchangeSes();
        try {
            write("/xch-a/run/m0", 1000, 3);
            int before = issuer.asked().size();
            String id = submit(submitter, List.of(file("/xch-a/run/m0", "/xch-b/run/out/m0", null),
                    file("/xch-a/run/m0", "/xch-b/run/out/m1", null)), "{\"retry\":2}");
            awaitJob(submitter, id, Duration.ofSeconds(30), "FAILED", "FINISHED", "FINISHEDDIRTY");
            JsonPath done = files(submitter, id);
            assertEquals(List.of("FAILED", "FAILED"), done.getList("file_state"), done.prettify());
            for (String reason : done.<String>getList("reason")) {
                assertTrue(reason.contains("refused to exchange the submitter's token") && reason.contains("HTTP 403 (access_denied"), reason);
                assertFalse(reason.contains(signature(submitter)));
            }
            assertEquals(2, count("SELECT count(*) FROM transfer_file WHERE job_id = '" + id + "' AND error_code = 'PERMISSION_DENIED'"));
            assertEquals(1, askedFor("mallory", before).size(), "a refusal is not asked again: " + askedFor("mallory", before));
            assertFalse(Files.exists(nginx.file("/xch-b/run/out/m0")));
        } finally {
            removeExchangeSes();
        }
    }

    /** What the job's event stream sends in its first second (the files' states; it stays open after that). */
    static String eventStream(String token, String id) throws Exception {
        HttpURLConnection c = (HttpURLConnection) URI.create(RestAssured.baseURI + ":"
                + RestAssured.port + "/jobs/" + id + "/events").toURL().openConnection();
        c.setRequestProperty("Authorization", "Bearer " + token);
        c.setRequestProperty("Accept", "text/event-stream");
        c.setReadTimeout(1000);
        StringBuilder out = new StringBuilder();
        try (InputStream in = c.getInputStream()) {
            byte[] b = new byte[8192];
            for (int n; (n = in.read(b)) > 0; ) {
                out.append(new String(b, 0, n, StandardCharsets.UTF_8));
            }
        } catch (SocketTimeoutException e) {
            // the stream stays open: what came so far is what it sent
        } finally {
            c.disconnect();
        }
        assertTrue(out.toString().contains("file_state"), "the stream sent the files' states: " + out);
        return out.toString();
    }

    /** Everything logged in this JVM while open (the scheduler under test logs through the same log manager). */
    static final class CapturedLogs extends Handler {
        private final StringBuffer text = new StringBuffer();
        private final Formatter format = new SimpleFormatter();

        static CapturedLogs start() {
            CapturedLogs h = new CapturedLogs();
            h.setLevel(Level.ALL);
            java.util.logging.Logger.getLogger("").addHandler(h);
            return h;
        }

        String text() {
            return text.toString();
        }

        @Override
        public void publish(LogRecord r) {
            text.append(format.format(r));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            java.util.logging.Logger.getLogger("").removeHandler(this);
        }
    }
}
