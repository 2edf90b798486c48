package io.ferry.scheduler.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpServer;
import io.ferry.dev.DevTokens;
import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.FerryTestResource;
import io.ferry.dev.FreePort;
import io.ferry.dev.NginxWebDav;
import io.ferry.dev.PostgresServer;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import io.ferry.identity.testca.TestTokenIssuer;
import io.ferry.movers.MoverException;
import io.ferry.scheduler.credentials.TokenSeal;
import io.ferry.scheduler.db.EngineConnections;
import io.ferry.scheduler.db.Tx;
import io.ferry.scheduler.delivery.RucioReceiver;
import io.ferry.scheduler.delivery.StompBroker;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.queue.QueueSnapshot;
import io.ferry.scheduler.storage.bans.BanService;
import io.ferry.scheduler.transitions.FileQueue;
import io.ferry.scheduler.transitions.JobEvents;
import io.ferry.scheduler.transitions.StateChanges;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import java.util.zip.Adler32;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine end to end against a real nginx with WebDAV: jobs of many files arrive verified, failures carry their
 * codes and are retried only when that can help, cancel stops a running copy, and fair share holds under a flood.
 * Transfer records pile up in the outbox while rate-aggregator is away (here: always).
 */
@QuarkusTest
@TestProfile(EngineTest.WithEngine.class)
@QuarkusTestResource(FerryTestResource.class)
public class EngineTest {

    /** The engine on, with short periods so that the tests run in seconds. */
    public static class WithEngine implements QuarkusTestProfile {
        /** The engine's file:// root; SEs registered below it have their own, narrower base directories. */
        static final Path FILE_ROOT = tempDirectory();
        /** A stand-in handle-resolver listens here ({@link #startResolver}). */
        static final int RESOLVER_PORT = FreePort.find();
        /** An IAM-like issuer that exchanges tokens for the scheduler listens here ({@link #startIssuerAndNginx}). */
        static final int ISSUER_PORT = FreePort.find();
        static final String EXCHANGING_ISSUER = "https://iam.exchange.test/";
        /** The STOMP broker for FTS3's monitoring messages; absent until a test starts one ({@code io.ferry.scheduler.delivery.StompBroker}). */
        static final int STOMP_PORT = FreePort.find();

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.ofEntries(Map.entry("ferry.scheduler.engine.enabled", "true"), Map.entry("ferry.scheduler.engine.tick", "100ms"),
                    Map.entry("ferry.scheduler.engine.lease", "4s"), Map.entry("ferry.scheduler.optimizer.interval", "2s"),
                    Map.entry("ferry.scheduler.outbox.interval", "500ms"), Map.entry("ferry.scheduler.outbox.max-backoff", "1s"),
                    Map.entry("ferry.scheduler.engine.stage-poll", "300ms"), Map.entry("ferry.scheduler.metrics.sample-interval", "200ms"),
                    Map.entry("ferry.scheduler.probes.poll", "200ms"), Map.entry("ferry.scheduler.probes.min-interval", "1s"),
                    Map.entry("ferry.scheduler.probes.max-file-size", "64M"),
                    Map.entry("ferry.scheduler.monitoring.stomp.enabled", "true"), Map.entry("ferry.scheduler.monitoring.stomp.host", "127.0.0.1"),
                    Map.entry("ferry.scheduler.monitoring.stomp.port", String.valueOf(STOMP_PORT)),
                    Map.entry("ferry.scheduler.monitoring.stomp.login", "ferry"), Map.entry("ferry.scheduler.monitoring.stomp.passcode", "stomp-passcode-1"),
                    Map.entry("ferry.scheduler.monitoring.stomp.interval", "200ms"), Map.entry("ferry.scheduler.monitoring.stomp.max-backoff", "500ms"),
                    Map.entry("ferry.scheduler.monitoring.stomp.receipt-timeout", "2s"),
                    Map.entry("ferry.scheduler.monitoring.stomp.endpoint", "https://ferry.test:8446"),
                    Map.entry("ferry.scheduler.engine.file-roots", FILE_ROOT.toString()),
                    Map.entry("quarkus.rest-client.handle-resolver.url", "http://127.0.0.1:" + RESOLVER_PORT),
                    Map.entry("ferry.scheduler.storage-tokens.refresh-before", "10m"),
                    Map.entry("ferry.scheduler.storage-tokens.refresh-interval", "300ms"),
                    Map.entry("ferry.scheduler.storage-tokens.exchange.iam.issuer", EXCHANGING_ISSUER),
                    Map.entry("ferry.scheduler.storage-tokens.exchange.iam.token-endpoint", "http://127.0.0.1:" + ISSUER_PORT + "/token"),
                    Map.entry("ferry.scheduler.storage-tokens.exchange.iam.client-id", "ferry-scheduler"),
                    Map.entry("ferry.scheduler.storage-tokens.exchange.iam.client-secret", "exchange-secret"),
                    Map.entry("ferry.scheduler.storage-tokens.issuer-backoff", "300ms"),
                    Map.entry("ferry.scheduler.storage-tokens.issuer-backoff-max", "1s"),
                    // its users submit with its tokens (scope fts, as Rucio asks for) and act for atlas
                    Map.entry("ferry.identity.issuers.iam.url", EXCHANGING_ISSUER),
                    Map.entry("ferry.identity.issuers.iam.jwks", "http://127.0.0.1:" + ISSUER_PORT + "/jwks"),
                    Map.entry("ferry.identity.issuers.iam.vo", "atlas"),
                    Map.entry("ferry.identity.grants.iam-fts.scope", "fts"),
                    Map.entry("ferry.identity.grants.iam-fts.roles", "transfer:read,transfer:submit"));
        }

        private static Path tempDirectory() {
            try {
                return Files.createTempDirectory("ferry-engine-files").toRealPath();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    static NginxWebDav nginx;
    static HttpServer resolver;
    /** The replicas' transport URLs the stand-in resolver answers with. */
    static final List<String> replicaTurls = new CopyOnWriteArrayList<>();
    /** The ids the stand-in resolver was asked about (query strings of its requests). */
    static final List<String> resolverQueries = new CopyOnWriteArrayList<>();

    /** Tokens as an IAM would issue them for storage, one for each of two SEs that want one (tok-a, tok-b). */
    static final String SOURCE_TOKEN = storageToken("storage.read:/");
    static final String DEST_TOKEN = storageToken("storage.modify:/ storage.read:/");

    static String storageToken(String scope) {
        return FerryTestResource.token(new DevTokens.Claims("rucio", null, null, scope, Duration.ofHours(1), "https://iam.test/",
                "https://wlcg.cern.ch/jwt/v1/any"));
    }

    static TestTokenIssuer issuer;
    static final int NGINX_PORT = FreePort.find();
    /** Users of the exchanging issuer who submit with its token and bring no storage tokens. */
    static final List<String> EXCHANGE_USERS = List.of("alice", "bob");
    /** What the issuer answers a request for the job's read token at xch-a and modify token at xch-b, per user. */
    static final Map<String, String> EXCHANGED = new LinkedHashMap<>();

    /**
     * The issuer first: xch-a and xch-b accept only the tokens it hands out for the job-wide scopes of the exchange
     * tests' files (storage.read:/run at xch-a, storage.modify:/run/out at xch-b, audience the nginx origin).
     */
    @BeforeAll
    static void startIssuerAndNginx() throws Exception {
        issuer = TestTokenIssuer.start(WithEngine.EXCHANGING_ISSUER, null, WithEngine.ISSUER_PORT);
        issuer.allowExchange("ferry-scheduler", "exchange-secret", Duration.ofHours(2));
        Set<String> reads = new HashSet<>();
        Set<String> modifies = new HashSet<>();
        for (String user : EXCHANGE_USERS) {
            for (String scope : List.of("storage.read:/run", "storage.modify:/run/out")) {
                String token = issuer.preset(user, scope, exchangeAudience(), Duration.ofHours(2));
                EXCHANGED.put(user + " " + scope, token);
                (scope.startsWith("storage.read") ? reads : modifies).add(token);
            }
        }
        nginx = new NginxWebDav(null, Map.of("tok-a", Set.of(SOURCE_TOKEN), "tok-b", Set.of(DEST_TOKEN),
                "xch-a", reads, "xch-b", modifies), NGINX_PORT);
    }

    static String exchangeAudience() {
        return "http://127.0.0.1:" + NGINX_PORT;
    }

    @BeforeAll
    static void startResolver() throws Exception {
        resolver = HttpServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), WithEngine.RESOLVER_PORT), 0);
        resolver.createContext("/replicas", exchange -> {
            resolverQueries.add(exchange.getRequestURI().getQuery());
            StringBuilder replicas = new StringBuilder();
            for (String turl : replicaTurls) {
                replicas.append(replicas.length() == 0 ? "" : ",").append("{\"turl\":\"").append(turl).append("\",\"state\":\"ONLINE\"}");
            }
            byte[] body = ("{\"replicas\":[" + replicas + "]}").getBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        resolver.start();
    }

    @AfterAll
    static void stopNginx() throws Exception {
        nginx.close();
        resolver.stop(0);
        issuer.close();
        DirectoryTrees.delete(WithEngine.FILE_ROOT);
    }

    static String admin() {
        return FerryTestResource.token(null, "transfer:admin");
    }

    static String vo(String name) {
        return FerryTestResource.token(name, "transfer:submit");
    }

    @BeforeEach
    void storageEndpoints() {
        for (String[] se : new String[][]{{"NGX-A", "/se-a"}, {"NGX-B", "/se-b"}, {"NGX-C", "/se-c"}, {"NGX-SLOW", "/slow"}}) {
            given().auth().oauth2(admin()).contentType(ContentType.JSON)
                    .body("{\"site\":\"" + se[0] + "-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url(se[1]) + "\"},\"access\":{\"open\":true}}")
                    .put("/endpoints/" + se[0]).then().statusCode(anyOf(equalTo(200), equalTo(201)));
        }
    }

    /** Writes random bytes to the nginx root; answers their ADLER32 as 8 hex digits. */
    static String write(String path, int size, long seed) throws Exception {
        Path file = nginx.file(path);
        Files.createDirectories(file.getParent());
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(data);
        }
        Adler32 a = new Adler32();
        a.update(data);
        return String.format("%08x", a.getValue());
    }

    static String file(String src, String dst, String adler) {
        return "{\"sources\":[\"" + nginx.url(src) + "\"],\"destinations\":[\"" + nginx.url(dst) + "\"]"
                + (adler == null ? "" : ",\"checksum\":\"ADLER32:" + adler + "\"") + "}";
    }

    static String submit(String token, List<String> files, String params) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).body("{\"files\":[" + String.join(",", files) + "],\"params\":" + params + "}")
                .post("/jobs").then().statusCode(200).extract().path("job_id");
    }

    static String awaitJob(String token, String id, Duration within, String... states) {
        List<String> wanted = Arrays.asList(states);
        String[] state = new String[1];
        await().atMost(within).pollInterval(Duration.ofMillis(200)).until(() -> {
            state[0] = given().auth().oauth2(token).get("/jobs/" + id).then().statusCode(200).extract().path("job_state");
            return wanted.contains(state[0]);
        });
        return state[0];
    }

    static JsonPath files(String token, String id) {
        return given().auth().oauth2(token).get("/jobs/" + id + "/files").then().statusCode(200).extract().jsonPath();
    }

    @Inject
    JobEvents jobEvents;

    @Test
    void aJobOfManyFilesArrivesByteIdenticalAndEveryAttemptIsRecorded() throws Exception {
        List<String> files = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            String adler = write("/se-a/many/f" + i, 100_000 + i * 7919, i);
            files.add(file("/se-a/many/f" + i, "/se-b/many/run1/f" + i, adler));
        }
        List<JobEvents.FileEvent> heard = new CopyOnWriteArrayList<>();
        Cancellable listening = jobEvents.all().subscribe().with(heard::add);
        String id = submit(vo("atlas"), files, "{\"verify_checksum\":\"both\",\"retry\":1}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(60), "FINISHED", "FINISHEDDIRTY", "FAILED");
        // every file was announced prepared, started and finished; the job FINISHED with its last file
        await().atMost(Duration.ofSeconds(5)).until(() -> heard.stream().anyMatch(e -> e.job_id().equals(id) && "FINISHED".equals(e.job_state())));
        listening.cancel();
        List<JobEvents.FileEvent> ofJob = heard.stream().filter(e -> e.job_id().equals(id)).toList();
        for (String state : List.of("READY", "ACTIVE", "FINISHED")) {
            assertEquals(24, ofJob.stream().filter(e -> e.file_state().equals(state)).map(e -> e.file_id()).distinct().count(), state + ": " + ofJob);
        }
        assertTrue(ofJob.stream().filter(e -> e.file_state().equals("READY"))
                .allMatch(e -> "prepared".equals(e.reason()) && List.of("SUBMITTED", "ACTIVE").contains(e.job_state()) && e.at() != null), ofJob.toString());
        assertTrue(ofJob.stream().filter(e -> e.file_state().equals("FINISHED"))
                .allMatch(e -> List.of("ACTIVE", "FINISHED").contains(e.job_state())), ofJob.toString());
        // started files are announced with their claim (or after their job's write), before anything their copy reports
        assertTrue(ofJob.stream().filter(e -> e.file_state().equals("ACTIVE"))
                .allMatch(e -> "transfer started".equals(e.reason()) && "ACTIVE".equals(e.job_state()) && e.at() != null), ofJob.toString());
        for (int i = 0; i < ofJob.size(); i++) {
            JobEvents.FileEvent e = ofJob.get(i);
            if (e.file_state().equals("FINISHED")) {
                assertTrue(ofJob.subList(0, i).stream().anyMatch(s -> s.file_id() == e.file_id() && s.file_state().equals("ACTIVE")),
                        "ACTIVE before FINISHED: " + ofJob);
            }
        }
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().body("job_state", equalTo("FINISHED")).body("job_finished", notNullValue());
        JsonPath done = files(vo("atlas"), id);
        assertEquals(24, done.getList("file_state").size());
        assertTrue(done.getList("file_state").stream().allMatch("FINISHED"::equals), done.prettify());
        for (int i = 0; i < 24; i++) {
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/many/f" + i)), Files.readAllBytes(nginx.file("/se-b/many/run1/f" + i)));
            assertEquals(100_000 + i * 7919, done.getLong("find { it.file_index == " + i + " }.bytes_transferred"));
            // the job gave no sizes: the one the source reported is shown
            assertEquals(100_000 + i * 7919, done.getLong("find { it.file_index == " + i + " }.filesize"));
        }
        // rate-aggregator is unreachable in this test: every attempt waits in the outbox, none is lost
        await().atMost(Duration.ofSeconds(10)).until(() -> outboxPending() >= 24);
        // the optimizer looked at the link and said why it chose what it chose
        await().atMost(Duration.ofSeconds(10)).until(() -> given().auth().oauth2(vo("atlas")).queryParam("source_se", "NGX-A")
                .queryParam("dest_se", "NGX-B").get("/optimizer/evolution").then().statusCode(200).extract().jsonPath().getList("rationale").size() > 0);
        given().auth().oauth2(vo("atlas")).get("/optimizer/decisions").then().statusCode(200)
                .body("find { it.source_se == 'NGX-A' && it.dest_se == 'NGX-B' }.rationale", notNullValue());
    }

    /** Rucio's WebDAV SEs are registered and submitted as dav:// (davs:// over TLS): the engine moves them as http(s). */
    @Test
    void davUrlsAreMovedLikeHttp() throws Exception {
        Files.createDirectories(nginx.file("/dav-b"));
        String davA = nginx.url("/dav-a").replaceFirst("^http:", "dav:");
        String davB = nginx.url("/dav-b").replaceFirst("^http:", "dav:");
        register("DAV-A", "{\"site\":\"DAV-SITE\",\"baseUrls\":{\"dav\":\"" + davA + "\"},\"access\":{\"open\":true}}");
        register("DAV-B", "{\"site\":\"DAV-SITE\",\"baseUrls\":{\"dav\":\"" + davB + "\"},\"access\":{\"open\":true}}");
        String adler = write("/dav-a/f1", 150_000, 31);
        String id = submit(vo("atlas"), List.of("{\"sources\":[\"" + davA + "/f1\"],\"destinations\":[\"" + davB + "/run/f1\"],"
                + "\"checksum\":\"ADLER32:" + adler + "\"}"), "{\"verify_checksum\":\"both\"}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
        JsonPath done = files(vo("atlas"), id);
        assertEquals("FINISHED", done.getString("file_state[0]"), done.prettify());
        assertEquals(davB + "/run/f1", done.getString("dest_surl[0]"));
        assertArrayEquals(Files.readAllBytes(nginx.file("/dav-a/f1")), Files.readAllBytes(nginx.file("/dav-b/run/f1")));
    }

    @Test
    void aDestinationSeThatDoesThirdPartyCopyPullsTheFileItself() throws Exception {
        Path pki = Files.createTempDirectory("ferry-engine-pki");
        try (XrootdServer xrootd = new XrootdServer(TestCertificates.create(pki))) {
            given().auth().oauth2(admin()).contentType(ContentType.JSON)
                    .body("{\"site\":\"XRD-SITE\",\"baseUrls\":{\"http\":\"" + xrootd.httpUrl("/store") + "\"},\"thirdPartyCopy\":true,\"access\":{\"open\":true}}")
                    .put("/endpoints/XRD").then().statusCode(anyOf(equalTo(200), equalTo(201)));
            String adler = write("/se-a/tpc/f1", 2_500_000, 77);
            String body = "{\"sources\":[\"" + nginx.url("/se-a/tpc/f1") + "\"],\"destinations\":[\"" + xrootd.httpUrl("/store/tpc/run1/f1")
                    + "\"],\"checksum\":\"ADLER32:" + adler + "\"}";
            String id = submit(vo("atlas"), List.of(body), "{\"verify_checksum\":\"both\"}");
            awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
            JsonPath f = files(vo("atlas"), id);
            assertEquals("FINISHED", f.getString("[0].file_state"), f.prettify());
            assertEquals(2_500_000, f.getLong("[0].bytes_transferred"));
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/tpc/f1")), Files.readAllBytes(xrootd.file("/store/tpc/run1/f1")));
            String log = xrootd.log();
            assertTrue(log.contains("event=TRANSFER_SUCCESS, local=/store/tpc/run1/f1, remote=" + nginx.url("/se-a/tpc/f1")),
                    "the destination SE fetched the file from the source itself: " + log);
        } finally {
            given().auth().oauth2(admin()).delete("/endpoints/XRD");
            DirectoryTrees.delete(pki);
        }
    }

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
            String id = submit(vo("atlas"), List.of(f.substring(0, f.length() - 1) + ",\"source_tokens\":[\"" + token + "\"],\"destination_tokens\":[\""
                    + token + "\"]}"), "{\"retry\":20,\"retry_delay\":1}");
            await().atMost(Duration.ofSeconds(20)).until(() -> count("SELECT count(*) FROM job_token WHERE job_id = '" + id
                    + "' AND expires_at > now() + interval '1 hour'") == 1);
            assertTrue(issuer.exchanges() >= 1);
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

    private long count(String sql) {
        return pool.query(sql).execute().await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0);
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

    /**
     * Each file's copy as [start, finish] in microseconds, from the database: the API answers FTS3's whole seconds,
     * too coarse to tell whether two copies overlapped.
     */
    static List<long[]> spans(String jobId) throws Exception {
        PostgresServer db = FerryTestResource.server();
        PostgresServer.Credentials role = FerryTestResource.databaseCredentials();
        List<long[]> spans = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(FerryTestResource.DATABASE), role.user(), role.password());
             PreparedStatement q = c.prepareStatement("SELECT (extract(epoch FROM start_time) * 1000000)::bigint, "
                     + "(extract(epoch FROM finish_time) * 1000000)::bigint FROM transfer_file WHERE job_id = ?::uuid")) {
            q.setString(1, jobId);
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    spans.add(new long[]{r.getLong(1), r.getLong(2)});
                }
            }
        }
        return spans;
    }

    /**
     * The value of the series of {@code name} on /q/metrics whose labels include {@code labels} (name, value, ...), or
     * null when there is none.
     */
    static Double metric(String name, String... labels) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith(name + "{") || l.startsWith(name + " ")).filter(l -> {
            for (int i = 0; i < labels.length; i += 2) {
                if (!l.contains(labels[i] + "=\"" + labels[i + 1] + "\"")) {
                    return false;
                }
            }
            return true;
        }).map(l -> Double.parseDouble(l.replaceFirst("^[^ {]+(\\{.*?\\})? ", "").split(" ")[0])).findFirst().orElse(null);
    }

    /**
     * Held by a wait ban, the files show in the queue gauges (per VO, per link, the prepare queue and its oldest file's
     * age); once moved, the counters have the job's files, bytes and failure by VO, error code and link, and the
     * optimizer's target for the link is exported as the database holds it.
     */
    @Test
    void metricsShowQueuedFilesThenCountTheJobsOutcomesBytesAndTheLinksTarget() throws Exception {
        for (String se : List.of("MET-A", "MET-B")) {
            Files.createDirectories(nginx.file("/" + se.toLowerCase()));
            given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"MET-SITE\",\"baseUrls\":{\"http\":\""
                    + nginx.url("/" + se.toLowerCase()) + "\"},\"access\":{\"open\":true}}").put("/endpoints/" + se).then()
                    .statusCode(anyOf(equalTo(200), equalTo(201)));
        }
        List<String> files = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < 3; i++) {
            files.add(file("/met-a/f" + i, "/met-b/f" + i, write("/met-a/f" + i, 40_000 + i * 1000, 70 + i)));
            bytes += 40_000 + i * 1000;
        }
        String adler = write("/met-a/bad", 30_000, 79);
        files.add(file("/met-a/bad", "/met-b/bad", adler.equals("00000001") ? "00000002" : "00000001"));
        String id;
        try {
            ban("se", "{\"storage\":\"MET-B\",\"status\":\"wait\",\"allow_submit\":true}").statusCode(200);
            id = submit(vo("metrics"), files, "{\"verify_checksum\":\"both\",\"retry\":0}");
            await().atMost(Duration.ofSeconds(10)).until(() -> Double.valueOf(4).equals(metric("ferry_files", "state", "SUBMITTED", "vo", "metrics")));
            assertEquals(4.0, metric("ferry_link_queued_files", "source_se", "MET-A", "dest_se", "MET-B"));
            assertTrue(metric("ferry_queue_files", "queue", "prepare") >= 4);
            await().atMost(Duration.ofSeconds(10)).until(() -> metric("ferry_queue_oldest_age_seconds", "queue", "prepare") >= 1);
        } finally {
            given().auth().oauth2(admin()).queryParam("storage", "MET-B").delete("/ban/se").then().statusCode(204);
        }
        assertEquals("FINISHEDDIRTY", awaitJob(vo("metrics"), id, Duration.ofSeconds(30), "FINISHED", "FINISHEDDIRTY", "FAILED", "CANCELED"));
        assertEquals(3.0, metric("ferry_files_ended_total", "state", "FINISHED", "vo", "metrics"));
        assertEquals(1.0, metric("ferry_files_ended_total", "state", "FAILED", "vo", "metrics"));
        assertEquals((double) bytes, metric("ferry_transfer_bytes_total", "vo", "metrics", "outcome", "FINISHED", "error_code", "none"));
        assertEquals(3.0, metric("ferry_transfer_attempts_total", "vo", "metrics", "outcome", "FINISHED", "error_code", "none"));
        assertEquals(1.0, metric("ferry_transfer_attempts_total", "vo", "metrics", "outcome", "FAILED", "error_code", "CHECKSUM_MISMATCH"));
        assertEquals(3.0, metric("ferry_link_attempts_total", "source_se", "MET-A", "dest_se", "MET-B", "outcome", "FINISHED"));
        assertEquals(1.0, metric("ferry_link_attempts_total", "source_se", "MET-A", "dest_se", "MET-B", "outcome", "FAILED"));
        assertEquals((double) bytes, metric("ferry_link_bytes_total", "source_se", "MET-A", "dest_se", "MET-B", "outcome", "FINISHED"));
        // the queue gauges go back to 0 rather than vanish
        await().atMost(Duration.ofSeconds(10)).until(() -> Double.valueOf(0).equals(metric("ferry_files", "state", "SUBMITTED", "vo", "metrics")));
        assertEquals(0.0, metric("ferry_link_queued_files", "source_se", "MET-A", "dest_se", "MET-B"));
        await().atMost(Duration.ofSeconds(15)).until(() -> metric("ferry_link_active_target", "source_se", "MET-A", "dest_se", "MET-B") != null);
        long target = pool.preparedQuery("SELECT active_target FROM link_state WHERE source_se = 'MET-A' AND dest_se = 'MET-B'").execute()
                .await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0);
        await().atMost(Duration.ofSeconds(5)).until(() -> Double.valueOf(target).equals(metric("ferry_link_active_target", "source_se", "MET-A", "dest_se", "MET-B")));
        assertTrue(metric("ferry_scheduler_replicas", "status", "live") >= 1);
        assertTrue(metric("ferry_scheduler_heartbeat_age_seconds") < 5);
    }

    static double outboxPending() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith("ferry_outbox_pending_records")).mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst().orElse(0);
    }

    @Test
    void aWrongChecksumFailsForGoodWithoutRetriesAndLeavesNoDestination() throws Exception {
        String adler = write("/se-a/bad/f1", 300_000, 42);
        String wrong = adler.equals("00000001") ? "00000002" : "00000001";
        String id = submit(vo("atlas"), List.of(file("/se-a/bad/f1", "/se-b/bad/f1", wrong)), "{\"verify_checksum\":\"both\",\"retry\":3,\"retry_delay\":0}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("CHECKSUM_MISMATCH", f.getString("[0].error_code"));
        assertEquals("checksum", f.getString("[0].error_phase"));
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id + "/files/" + f.getLong("[0].file_id") + "/retries").then().statusCode(200)
                .body("$", hasSize(0));
        assertFalse(Files.exists(nginx.file("/se-b/bad/f1")), "a copy that failed its checksum must not stay");
    }

    @Test
    void fts3CompletionMessagesWaitForTheBrokerAndReachItOnceItIsUpAsRucioParsesThem() throws Exception {
        String metadata = "{\"request_id\":\"%s\",\"scope\":\"user.alice\",\"name\":\"%s\",\"src_rse\":\"NGX-A\",\"dst_rse\":\"NGX-B\"}";
        String adler = write("/se-a/monitored/ok", 50_000, 5);
        String good = file("/se-a/monitored/ok", "/se-b/monitored/ok", adler).replaceFirst("}$", ",\"metadata\":" + metadata.formatted("req-ok", "ok") + "}");
        String bad = file("/se-a/monitored/missing", "/se-b/monitored/missing", null)
                .replaceFirst("}$", ",\"metadata\":" + metadata.formatted("req-missing", "missing") + "}");
        // no broker yet: the messages of both files wait in the outbox
        String id = submit(vo("atlas"), List.of(good, bad), "{\"retry\":0,\"job_metadata\":{\"issuer\":\"rucio\",\"multi_sources\":false}}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHEDDIRTY", "FINISHED", "FAILED");
        await().atMost(Duration.ofSeconds(10)).until(() -> count("SELECT count(*) FROM monitoring_outbox WHERE payload LIKE '%" + id + "%'") == 2);
        Thread.sleep(1000); // tries against the absent broker: they must keep the messages
        assertEquals(2, count("SELECT count(*) FROM monitoring_outbox WHERE payload LIKE '%" + id + "%'"));

        try (StompBroker broker = new StompBroker(WithEngine.STOMP_PORT,
                "transfer.fts_monitoring_complete")) {
            await().atMost(Duration.ofSeconds(15)).until(() -> broker.bodies.stream().filter(b -> b.contains(id)).count() >= 2);
            await().atMost(Duration.ofSeconds(5)).until(() -> count("SELECT count(*) FROM monitoring_outbox WHERE payload LIKE '%" + id + "%'") == 0);
            Map<String, Map<String, Object>> byRequest = new HashMap<>();
            for (String body : broker.bodies) {
                if (body.contains(id)) {
                    Map<String, Object> rucio = RucioReceiver.onMessage(body);
                    assertNull(byRequest.put((String) rucio.get("request_id"), rucio), "one message per file: " + broker.bodies);
                }
            }
            assertEquals("DONE", byRequest.get("req-ok").get("new_state"));
            assertEquals("FAILED", byRequest.get("req-missing").get("new_state"));
            assertTrue(((String) byRequest.get("req-missing").get("reason")).length() > 0);
            for (Map<String, Object> rucio : byRequest.values()) {
                assertEquals(id, rucio.get("transfer_id"));
                assertEquals("https://ferry.test:8446", rucio.get("external_host"));
                assertEquals("user.alice", rucio.get("scope"));
                assertTrue((double) rucio.get("duration") >= 0);
                assertTrue(Duration.between((Instant) rucio.get("transferred_at"), Instant.now()).abs().toMinutes() < 5,
                        "tr_timestamp_complete in milliseconds");
            }
            assertTrue(broker.voHeaders.contains("atlas"), "FTS3's vo header");
        }
    }

    /**
     * FTS3's dst_file_report: with overwrite off the copy onto an existing file fails as FTS3's does (EEXIST, its
     * words), and the job that asked for the report gets the existing file's real size and ADLER32 as dst_file in the
     * file's metadata, in the status answer and in the completion message; a job that did not ask gets neither.
     */
    @Test
    void anExistingDestinationIsReportedAsDstFileOnlyWhenTheJobAsks() throws Exception {
        String metadata = ",\"metadata\":{\"request_id\":\"%s\",\"scope\":\"user.alice\"}}";
        write("/se-a/dstreport/f1", 10_000, 31);
        String there = write("/se-b/dstreport/f1", 7_000, 32);
        write("/se-a/dstreport/f2", 10_000, 33);
        write("/se-b/dstreport/f2", 5_000, 34);
        String reported = submit(vo("atlas"), List.of(file("/se-a/dstreport/f1", "/se-b/dstreport/f1", null).replaceFirst("}$", metadata.formatted("req-report"))),
                "{\"retry\":0,\"overwrite\":false,\"dst_file_report\":true}");
        String plain = submit(vo("atlas"), List.of(file("/se-a/dstreport/f2", "/se-b/dstreport/f2", null).replaceFirst("}$", metadata.formatted("req-plain"))),
                "{\"retry\":0}");
        awaitJob(vo("atlas"), reported, Duration.ofSeconds(30), "FAILED");
        awaitJob(vo("atlas"), plain, Duration.ofSeconds(30), "FAILED");

        JsonPath f = files(vo("atlas"), reported);
        assertEquals("DEST_EXISTS", f.getString("[0].error_code"));
        assertTrue(f.getString("[0].reason").contains("Destination file exists and overwrite is not enabled"), f.prettify());
        assertEquals("req-report", f.getString("[0].file_metadata.request_id"));
        assertEquals(7_000, f.getLong("[0].file_metadata.dst_file.file_size"));
        assertEquals("ADLER32", f.getString("[0].file_metadata.dst_file.checksum_type"));
        assertEquals(there, f.getString("[0].file_metadata.dst_file.checksum_value"));
        assertEquals(true, f.getBoolean("[0].file_metadata.dst_file.file_on_disk"));
        assertEquals(false, f.getBoolean("[0].file_metadata.dst_file.file_on_tape"));
        assertEquals(7_000, Files.size(nginx.file("/se-b/dstreport/f1")), "the existing file stays as it was");
        JsonPath p = files(vo("atlas"), plain);
        assertEquals("DEST_EXISTS", p.getString("[0].error_code"));
        assertEquals("req-plain", p.getString("[0].file_metadata.request_id"));
        assertNull(p.get("[0].file_metadata.dst_file"), p.prettify());

        try (StompBroker broker = new StompBroker(WithEngine.STOMP_PORT,
                "transfer.fts_monitoring_complete")) {
            await().atMost(Duration.ofSeconds(15)).until(() -> broker.bodies.stream().anyMatch(b -> b.contains(reported))
                    && broker.bodies.stream().anyMatch(b -> b.contains(plain)));
            ObjectMapper json = new ObjectMapper();
            for (String body : broker.bodies) {
                if (!body.contains(reported) && !body.contains(plain)) {
                    continue;
                }
                JsonNode m = json.readTree(body.substring(0, body.lastIndexOf('}') + 1));
                assertEquals(17, m.path("t_error_code").asInt(), body);
                assertTrue(m.path("t__error_message").asText().contains("Destination file exists and overwrite is not enabled"), body);
                JsonNode dstFile = m.path("file_metadata").path("dst_file");
                if (body.contains(reported)) {
                    assertEquals(7_000, dstFile.path("file_size").asLong(), body);
                    assertEquals("ADLER32", dstFile.path("checksum_type").asText(), body);
                    assertEquals(there, dstFile.path("checksum_value").asText(), body);
                    assertEquals("req-report", m.path("file_metadata").path("request_id").asText(), body);
                } else {
                    assertTrue(dstFile.isMissingNode(), body);
                    assertEquals("req-plain", m.path("file_metadata").path("request_id").asText(), body);
                }
            }
        }
    }

    @Test
    void aMissingSourceFailsForGoodInThePreparePhase() {
        String id = submit(vo("atlas"), List.of(file("/se-a/nothing/here", "/se-b/nothing/here", null)), "{\"retry\":3}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("SOURCE_NOT_FOUND", f.getString("[0].error_code"));
        assertEquals("prepare", f.getString("[0].error_phase"));
        assertEquals(0, f.getInt("[0].retry"));
    }

    @Test
    void whenTheFirstSourceIsGoneTheNextReplicaIsUsed() throws Exception {
        String adler = write("/se-c/replica/f1", 120_000, 21);
        String body = "{\"sources\":[\"" + nginx.url("/se-a/replica/missing-f1") + "\",\"" + nginx.url("/se-c/replica/f1") + "\"],"
                + "\"destinations\":[\"" + nginx.url("/se-b/replica/f1") + "\"],\"checksum\":\"ADLER32:" + adler + "\"}";
        String id = submit(vo("atlas"), List.of(body), "{\"verify_checksum\":\"both\"}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("FINISHED", f.getString("[0].file_state"), f.prettify());
        assertEquals("NGX-C", f.getString("[0].source_se"));
        assertEquals(nginx.url("/se-c/replica/f1"), f.getString("[0].source_surl"));
        JsonPath retries = given().auth().oauth2(vo("atlas")).get("/jobs/" + id + "/files/" + f.getLong("[0].file_id") + "/retries")
                .then().statusCode(200).extract().jsonPath();
        assertEquals("SOURCE_NOT_FOUND", retries.getString("[0].error_code"));
        assertTrue(retries.getString("[0].reason").contains("trying the next source"));
        assertArrayEquals(Files.readAllBytes(nginx.file("/se-c/replica/f1")), Files.readAllBytes(nginx.file("/se-b/replica/f1")));
    }

    @Test
    void anSesOutboundCapHoldsAcrossItsLinks() throws Exception {
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"CAP-SITE\",\"outboundMaxActive\":1,\"baseUrls\":{\"http\":\""
                + nginx.url("/slow/cap") + "\"},\"access\":{\"open\":true}}").put("/endpoints/NGX-CAP").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        List<String> files = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            write("/slow/cap/f" + i, 384 << 10, 300 + i);
            files.add(file("/slow/cap/f" + i, (i % 2 == 0 ? "/se-b" : "/se-c") + "/cap/f" + i, null));
        }
        String id = submit(vo("atlas"), files, "{}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(60), "FINISHED", "FAILED", "FINISHEDDIRTY");
        JsonPath f = files(vo("atlas"), id);
        assertTrue(f.getList("file_state").stream().allMatch("FINISHED"::equals), f.prettify());
        List<long[]> spans = spans(id);
        assertEquals(6, spans.size());
        for (long[] a : spans) {
            long overlapping = spans.stream().filter(b -> b[0] <= a[0] && a[0] < b[1]).count();
            assertEquals(1, overlapping, "two copies left NGX-CAP (outbound cap 1) at once");
        }
    }

    @Test
    void anSeInMaintenanceIsRetriedAndTheFileArrivesWhenItIsBack() throws Exception {
        String adler = write("/se-c/maint/f1", 200_000, 7);
        Path down = nginx.root.resolve("se-c.down");
        Files.writeString(down, "maintenance");
        try {
            String id = submit(vo("cms"), List.of(file("/se-c/maint/f1", "/se-b/maint/f1", adler)),
                    "{\"verify_checksum\":true,\"retry\":5,\"retry_delay\":1}");
            long fileId = files(vo("cms"), id).getLong("[0].file_id");
            await().atMost(Duration.ofSeconds(20)).until(() -> given().auth().oauth2(vo("cms")).get("/jobs/" + id + "/files/" + fileId + "/retries")
                    .then().statusCode(200).extract().jsonPath().getList("error_code").contains("HTTP_5XX"));
            Files.delete(down);
            awaitJob(vo("cms"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
            given().auth().oauth2(vo("cms")).get("/jobs/" + id).then().body("job_state", equalTo("FINISHED"));
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-c/maint/f1")), Files.readAllBytes(nginx.file("/se-b/maint/f1")));
            assertTrue(files(vo("cms"), id).getInt("[0].retry") >= 1);
        } finally {
            Files.deleteIfExists(down);
        }
    }

    @Test
    void cancelStopsARunningCopyAndNothingArrives() throws Exception {
        write("/slow/big/f1", 8 << 20, 3);
        String id = submit(vo("lhcb"), List.of(file("/slow/big/f1", "/se-b/big/f1", null)), "{}");
        awaitJob(vo("lhcb"), id, Duration.ofSeconds(20), "ACTIVE");
        // another VO can neither see nor stop it
        given().auth().oauth2(vo("cms")).delete("/jobs/" + id).then().statusCode(404);
        Thread.sleep(1000);
        given().auth().oauth2(vo("lhcb")).delete("/jobs/" + id).then().statusCode(200).body("job_state", equalTo("CANCELED"));
        // the copy is stopped (the cancel's NOTIFY aborts it): nginx never completes the PUT
        Thread.sleep(2000);
        assertFalse(Files.exists(nginx.file("/se-b/big/f1")));
        files(vo("lhcb"), id).getList("file_state").forEach(s -> assertEquals("CANCELED", s));
    }

    @Inject
    Pool pool;

    @Test
    void aStatementAsLongAsTheEnginesCtesIsPlannedOncePerConnection() {
        // Vert.x keeps only statements under 2,048 characters prepared; StatementCachingPool lifts that, or PostgreSQL
        // parses and plans the engine's claim and record statements on every execution
        String sql = "SELECT $1::int + 1 /* " + "x".repeat(9_000) + " */";
        long prepared = pool.withConnection(c -> c.preparedQuery(sql).execute(Tuple.of(1))
                .chain(x -> c.preparedQuery(sql).execute(Tuple.of(2)))
                .chain(x -> c.preparedQuery("SELECT count(*) FROM pg_prepared_statements WHERE statement = $1").execute(Tuple.of(sql)))
                .map(rows -> rows.iterator().next().getLong(0))).await().atMost(Duration.ofSeconds(10));
        assertEquals(1, prepared, "the long statement is kept prepared on its connection");
    }

    @Inject
    @EngineConnections
    Pool enginePool;

    @Test
    void theEnginesStatementsArePlannedOnceAndTheOthersKeepPostgresChoice() {
        // on the engine's connections a statement is planned once; elsewhere as PostgreSQL chooses, which for a
        // statement like this one on a full table (a custom plan knows the array's length) is anew on every execution
        String sql = "SELECT count(*) FROM transfer_file f, unnest($1::bigint[]) AS v(id) WHERE f.file_id = v.id AND f.state = $2";
        String plans = "SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1";
        Function<Pool, String> eightRuns = p -> p.withConnection(c -> {
            Uni<?> runs = Uni.createFrom().voidItem();
            for (int i = 0; i < 8; i++) {
                long n = i;
                runs = runs.chain(x -> c.preparedQuery(sql).execute(Tuple.of(new Long[]{n, n + 1}, "FINISHED")));
            }
            return runs.chain(x -> c.preparedQuery(plans).execute(Tuple.of(sql)))
                    .map(rows -> rows.iterator().next().getLong(0) + " generic, " + rows.iterator().next().getLong(1) + " custom");
        }).await().atMost(Duration.ofSeconds(10));
        assertEquals("8 generic, 0 custom", eightRuns.apply(enginePool), "the engine's connections plan a statement once");
        // PostgreSQL's choice: custom plans for the first five executions at least, then whichever looks cheaper
        assertTrue(eightRuns.apply(pool).matches("[0-3] generic, [5-8] custom"), "the default pool keeps PostgreSQL's choice");
    }

    @Test
    void aLockedTransactionEndsOnEveryWayOutLeavingNoLockOnThePooledConnection() {
        long key = 0x7E57L; // not the scheduling pass's: the engine keeps running beside this test
        String held = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND classid = 0 AND objid = " + key;
        String aborted = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction (aborted)'";
        Function<String, Long> count = sql -> pool.query(sql).execute().await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0);
        // a failing statement of the work, and a Java error in it (not a RuntimeException), both after the lock was taken
        assertThrows(RuntimeException.class, () -> Tx.runLocked(enginePool, key, c -> c.query("SELECT 1 / 0").execute().await().atMost(Duration.ofSeconds(10))));
        AssertionError gaveUp = assertThrows(AssertionError.class, () -> Tx.runLocked(enginePool, key, c -> {
            assertEquals(1L, count.apply(held), "the work runs holding the lock");
            throw new AssertionError("the work gave up");
        }));
        assertEquals("the work gave up", gaveUp.getMessage());
        assertEquals(0L, count.apply(held), "the lock went with the transaction");
        assertEquals(0L, count.apply(aborted), "no connection was given back inside an aborted transaction");
        assertEquals(List.of(1), Tx.runLocked(enginePool, key, c -> List.of(c.query("SELECT 1").execute().await().atMost(Duration.ofSeconds(10)).size())),
                "the pool's connections take the lock again");
    }

    @Inject
    EngineIdentity identity;

    @Inject
    StateChanges outcomes;

    @Inject
    FileQueue queue;

    /** Moves one file and answers its id once its job is FINISHED. */
    private long finishedFile(String name) throws Exception {
        String adler = write("/se-a/" + name + "/f1", 100_000, name.hashCode());
        String id = submit(vo("atlas"), List.of(file("/se-a/" + name + "/f1", "/se-b/" + name + "/f1", adler)), "{}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED");
        return files(vo("atlas"), id).getLong("[0].file_id");
    }

    /** Puts a file back to ACTIVE as if {@code owner} had claimed it again; answers that claim. */
    private ClaimedFile claimedAgainBy(long fileId, String owner) {
        return pool.withTransaction(c -> c.preparedQuery("UPDATE transfer_file SET state = 'ACTIVE', lease_owner = $2, "
                        + "lease_until = now() + interval '1 hour', claim_epoch = claim_epoch + 1 WHERE file_id = $1").execute(Tuple.of(fileId, owner))
                .chain(x -> c.preparedQuery("UPDATE job SET state = 'ACTIVE', finished_at = NULL WHERE job_id = (SELECT job_id FROM transfer_file "
                        + "WHERE file_id = $1)").execute(Tuple.of(fileId)))
                .chain(x -> queue.read(c, fileId))).await().atMost(Duration.ofSeconds(10));
    }

    private String stateOf(long fileId) {
        return pool.preparedQuery("SELECT state FROM transfer_file WHERE file_id = $1").execute(Tuple.of(fileId)).await()
                .atMost(Duration.ofSeconds(10)).iterator().next().getString(0);
    }

    @Test
    void thePrepareSnapshotCountsWaitingFilesOnlyUpToTheCapAndWhatQueuesHoldInFull() {
        // on SEs nobody registered: the engine leaves these files alone while the test reads its snapshot
        UUID job = UUID.randomUUID();
        String insert = "INSERT INTO transfer_file (job_id, file_index, vo, activity, source_url, dest_url, source_se, dest_se, state, "
                + "lease_owner, lease_until, next_attempt_at, prepared_at) SELECT $1::uuid, $2::int * 100 + i, $3::text, 'default', "
                + "'https://snap-x/' || ($2::int * 100 + i), 'https://snap-y/' || ($2::int * 100 + i), 'SNAP-X', 'SNAP-Y', $4::text, $5::text, "
                + "now() + make_interval(secs => $6::float8), now() + make_interval(secs => $7::float8), "
                + "CASE WHEN $4::text = 'READY' THEN now() END FROM generate_series(1, $8::int) i";
        pool.withTransaction(c -> c.preparedQuery("INSERT INTO job (job_id, vo, user_dn, state, priority, verify_checksum, overwrite, retry, "
                        + "retry_delay, params) VALUES ($1, 'atlas', 'snapshot', 'ACTIVE', 3, 'none', false, 0, 0, '{}')").execute(Tuple.of(job))
                .chain(x -> c.preparedQuery(insert).executeBatch(List.of(
                        Tuple.tuple().addUUID(job).addInteger(1).addString("atlas").addString("SUBMITTED").addString(null).addDouble(null).addDouble(0.0).addInteger(10),
                        Tuple.tuple().addUUID(job).addInteger(2).addString("atlas").addString("SUBMITTED").addString("snapshot/1").addDouble(3600.0).addDouble(0.0).addInteger(2),
                        Tuple.tuple().addUUID(job).addInteger(3).addString("atlas").addString("SUBMITTED").addString(null).addDouble(null).addDouble(3600.0).addInteger(1),
                        Tuple.tuple().addUUID(job).addInteger(4).addString("atlas").addString("READY").addString(null).addDouble(null).addDouble(0.0).addInteger(3),
                        Tuple.tuple().addUUID(job).addInteger(5).addString("atlas").addString("ACTIVE").addString("snapshot/1").addDouble(3600.0).addDouble(0.0).addInteger(2),
                        Tuple.tuple().addUUID(job).addInteger(6).addString("atlas").addString("STAGING").addString(null).addDouble(null).addDouble(3600.0).addInteger(1),
                        Tuple.tuple().addUUID(job).addInteger(7).addString("cms").addString("SUBMITTED").addString(null).addDouble(null).addDouble(0.0).addInteger(1))))
        ).await().atMost(Duration.ofSeconds(10));
        try {
            Duration pin = Duration.ofHours(1);
            Map<String, QueueSnapshot> capped = snapshotOfSnapLink(pin, 4);
            assertEquals(new QueueSnapshot("SNAP-X", "SNAP-Y", "atlas", "default", 4, 2, 3, 2, 1), capped.get("atlas"),
                    "waiting counted up to the cap; prepare claims, READY, ACTIVE and STAGING in full");
            assertEquals(new QueueSnapshot("SNAP-X", "SNAP-Y", "cms", "default", 1, 0, 0, 0, 0), capped.get("cms"));
            assertEquals(10, snapshotOfSnapLink(pin, 100).get("atlas").waiting(), "below the cap every due waiting file is counted, no leased or later one");
        } finally {
            pool.preparedQuery("DELETE FROM job WHERE job_id = $1").execute(Tuple.of(job)).await().atMost(Duration.ofSeconds(10));
        }
    }

    private Map<String, QueueSnapshot> snapshotOfSnapLink(Duration pin, int cap) {
        Map<String, QueueSnapshot> byVo = new HashMap<>();
        pool.withConnection(c -> queue.snapshot(c, pin, cap)).await().atMost(Duration.ofSeconds(10)).stream()
                .filter(q -> q.sourceSe().equals("SNAP-X")).forEach(q -> byVo.put(q.vo(), q));
        return byVo;
    }

    @Test
    void aReplicaThatStopsBeatingLosesItsCopyWithinSecondsNotALease() throws Exception {
        Double takenBefore = metric("ferry_lease_takeovers_total", "reason", "replica_dead");
        long fileId = finishedFile("ghost");
        claimedAgainBy(fileId, "ghost/1/dead");
        pool.preparedQuery("INSERT INTO scheduler_replica (replica_id, name, beat_at) VALUES ('ghost/1/dead', 'ghost', now() - interval '6 seconds')")
                .execute().await().atMost(Duration.ofSeconds(10));
        // the lease holds for an hour: only the missed heartbeat can bring the file back, and this replica moves it again
        await().atMost(Duration.ofSeconds(15)).until(() -> "FINISHED".equals(stateOf(fileId)));
        String reasons = pool.preparedQuery("SELECT string_agg(error_code || ': ' || reason, '; ') FROM file_retry WHERE file_id = $1")
                .execute(Tuple.of(fileId)).await().atMost(Duration.ofSeconds(10)).iterator().next().getString(0);
        assertTrue(reasons != null && reasons.contains("LEASE_EXPIRED: the scheduler replica moving it stopped beating"), reasons);
        assertEquals((takenBefore == null ? 0 : takenBefore) + 1, metric("ferry_lease_takeovers_total", "reason", "replica_dead"));
        assertEquals(0, pool.preparedQuery("SELECT 1 FROM scheduler_replica WHERE replica_id = 'ghost/1/dead'").execute().await()
                .atMost(Duration.ofSeconds(10)).size(), "the dead replica is forgotten once its files are back");
        assertTrue(pool.preparedQuery("SELECT 1 FROM scheduler_replica WHERE replica_id = $1 AND NOT dead").execute(Tuple.of(identity.id()))
                .await().atMost(Duration.ofSeconds(10)).size() == 1, "this replica beats under its own incarnation");
    }

    @Test
    void aCopyThatOutlivedItsClaimCannotFinishTheFileEvenOnTheSameReplica() throws Exception {
        long fileId = finishedFile("epoch");
        ClaimedFile stale = claimedAgainBy(fileId, identity.id());
        ClaimedFile current = claimedAgainBy(fileId, identity.id());
        AttemptTimes times = AttemptTimes.prepare(OffsetDateTime.now(), OffsetDateTime.now());
        outcomes.finished(stale, 100_000, 1, 1e6, times);
        assertEquals("ACTIVE", stateOf(fileId), "the earlier claim's outcome is refused");
        outcomes.failed(stale, StateChanges.Guard.RUNNING, stale.attempts(), new MoverException(MoverException.Code.CONNECTION_RESET, "transfer",
                "late failure of the earlier claim"), 0, 1, times);
        assertEquals("ACTIVE", stateOf(fileId), "so is its failure");
        outcomes.finished(current, 100_000, 1, 1e6, times);
        assertEquals("FINISHED", stateOf(fileId), "the current claim's outcome is written");
    }

    @Test
    void aFileOnTapeIsStagedFirstAndMovedOnceOnDisk() throws Exception {
        // A WLCG Tape REST endpoint that brings a file online on the third poll, and not before the test saw it staging
        // (on a busy machine a poll of the job's state can take longer than three stage polls)
        List<String> requests = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger polls = new AtomicInteger();
        AtomicBoolean seenStaging = new AtomicBoolean();
        HttpServer tape = HttpServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        tape.createContext("/api/v1/stage", exchange -> {
            String answer;
            int status = 200;
            if (exchange.getRequestMethod().equals("POST")) {
                requests.add(new String(exchange.getRequestBody().readAllBytes()));
                answer = "{\"requestId\":\"req-1\"}";
                status = 201;
            } else {
                boolean onDisk = polls.incrementAndGet() >= 3 && seenStaging.get();
                answer = "{\"id\":\"req-1\",\"files\":[{\"path\":\"/se-a/tape/raw/f1\",\"onDisk\":" + onDisk + "}]}";
            }
            byte[] body = answer.getBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        tape.start();
        try {
            given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"TAPE-SITE\",\"needsPrepare\":true,\"baseUrls\":{\"http\":\""
                    + nginx.url("/se-a/tape") + "\",\"tape\":\"http://127.0.0.1:" + tape.getAddress().getPort() + "/api/v1\"},\"access\":{\"open\":true}}")
                    .put("/endpoints/NGX-TAPE").then().statusCode(anyOf(equalTo(200), equalTo(201)));
            String adler = write("/se-a/tape/raw/f1", 150_000, 11);
            String id = submit(vo("atlas"), List.of(file("/se-a/tape/raw/f1", "/se-b/from-tape/f1", adler)), "{\"verify_checksum\":\"both\"}");
            assertEquals("STAGING", awaitJob(vo("atlas"), id, Duration.ofSeconds(20), "STAGING"));
            seenStaging.set(true);
            assertEquals("NGX-TAPE", files(vo("atlas"), id).getString("[0].source_se"));
            awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
            given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().body("job_state", equalTo("FINISHED"));
            assertEquals(1, requests.size());
            assertTrue(requests.get(0).contains("/se-a/tape/raw/f1"), requests.get(0));
            assertTrue(polls.get() >= 3, "polled " + polls.get() + " times");
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/tape/raw/f1")), Files.readAllBytes(nginx.file("/se-b/from-tape/f1")));
            // FTS3's bring-online times, in its format: the request went out before the file came online
            JsonPath staged = files(vo("atlas"), id);
            String start = staged.getString("[0].staging_start");
            String online = staged.getString("[0].staging_finished");
            assertTrue(start != null && start.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d"), staged.prettify());
            assertTrue(online != null && online.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d"), staged.prettify());
            assertTrue(start.compareTo(online) <= 0, start + " after " + online);
            assertTrue(online.compareTo(staged.getString("[0].finish_time")) <= 0, staged.prettify());
        } finally {
            tape.stop(0);
        }
    }

    /** Registers an SE on nginx's {@code base} whose Tape REST endpoint is {@code tape}; needsPrepare false: the job's params decide. */
    static void registerTapeSe(String name, String base, TapeRestServer tape) {
        try {
            // the SE's base collection exists, as on a real SE (Ferry creates collections below it only)
            Files.createDirectories(nginx.file(base));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"TAPE-SITE\",\"baseUrls\":{\"http\":\""
                + nginx.url(base) + "\",\"tape\":\"" + tape.url() + "\"},\"access\":{\"open\":true}}")
                .put("/endpoints/" + name).then().statusCode(anyOf(equalTo(200), equalTo(201)));
    }

    /**
     * FTS3's staging job: bring_online and copy_pin_lifetime stage the source first (even on an SE not marked as
     * needing it), the stage request carries the pin as diskLifetime and staging_metadata as targetedMetadata, every
     * Tape REST call carries the file's own source token, and once copied the request is released with the path.
     */
    @Test
    void aStagingJobIsStagedWithItsPinAndMetadataCopiedAndReleased() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(2, -1)) {
            registerTapeSe("NGX-TAPE-BO", "/se-a/tape-bo", tape);
            String adler = write("/se-a/tape-bo/f1", 90_000, 41);
            String tokens = ",\"source_tokens\":[\"" + SOURCE_TOKEN + "\"],\"destination_tokens\":[\"" + DEST_TOKEN + "\"]}";
            String file = file("/se-a/tape-bo/f1", "/se-b/from-tape-bo/f1", adler);
            String id = submit(vo("atlas"), List.of(file.substring(0, file.length() - 1) + tokens),
                    "{\"bring_online\":600,\"copy_pin_lifetime\":3600,\"staging_metadata\":{\"priority\":\"high\"}}");
            assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"), files(vo("atlas"), id).prettify());
            assertEquals(List.of(), tape.refused);
            List<TapeRestServer.Request> stages = tape.requests("POST", "/stage");
            assertEquals(1, stages.size(), tape.requests.toString());
            String host = URI.create(nginx.url("/")).getHost();
            assertEquals("{\"files\":[{\"path\":\"/se-a/tape-bo/f1\",\"diskLifetime\":\"PT3600S\",\"targetedMetadata\":{\"" + host
                    + "\":{\"priority\":\"high\"}}}]}", stages.get(0).body().toString());
            String requestId = "req-1";
            assertTrue(tape.requests("GET", "/stage/" + requestId).size() >= 2, tape.requests.toString());
            await().atMost(Duration.ofSeconds(5)).until(() -> tape.requests("POST", "/release/").size() == 1);
            TapeRestServer.Request release = tape.requests("POST", "/release/").get(0);
            assertEquals("/release/" + requestId, release.path());
            assertEquals("{\"paths\":[\"/se-a/tape-bo/f1\"]}", release.body().toString());
            // the file's own token toward its source, on every call (stage, polls, release)
            tape.requests.forEach(r -> assertEquals("Bearer " + SOURCE_TOKEN, r.authorization(), r.toString()));
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/tape-bo/f1")), Files.readAllBytes(nginx.file("/se-b/from-tape-bo/f1")));
            JsonPath staged = files(vo("atlas"), id);
            assertTrue(staged.getString("[0].staging_start") != null && staged.getString("[0].staging_finished") != null, staged.prettify());
        }
    }

    /** A file not online within bring_online fails with FTS3's reason, its stage request cancelled; nothing is copied. */
    @Test
    void aStageThatOutlastsBringOnlineFailsAndIsCancelled() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(-1, -1)) {
            registerTapeSe("NGX-TAPE-SLOW", "/se-a/tape-slow", tape);
            write("/se-a/tape-slow/f1", 10_000, 42);
            String id = submit(vo("atlas"), List.of(file("/se-a/tape-slow/f1", "/se-b/from-tape-slow/f1", null)), "{\"bring_online\":1,\"retry\":0}");
            assertEquals("FAILED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"));
            JsonPath f = files(vo("atlas"), id);
            assertEquals("bring-online timeout has been exceeded", f.getString("[0].reason"), f.prettify());
            assertEquals(List.of(), tape.refused);
            List<TapeRestServer.Request> cancels = tape.requests("POST", "/stage/req-1/cancel");
            assertEquals(1, cancels.size(), tape.requests.toString());
            assertEquals("{\"paths\":[\"/se-a/tape-slow/f1\"]}", cancels.get(0).body().toString());
            assertEquals(List.of(), tape.requests("POST", "/release/"));
            assertFalse(Files.exists(nginx.file("/se-b/from-tape-slow/f1")));
        }
    }

    /**
     * FTS3's archive monitoring: a copy to a tape SE for a job with archive_timeout is ARCHIVING (the job ACTIVE) until
     * archiveinfo, asked with the file's own destination token, says it is on tape; then FINISHED.
     */
    @Test
    void aCopyToTapeIsArchivingUntilOnTapeThenFinished() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(-1, -1)) {
            registerTapeSe("NGX-TAPE-DST", "/se-b/tape-dst", tape);
            String adler = write("/se-a/to-tape/f1", 70_000, 43);
            String tokens = ",\"source_tokens\":[\"" + SOURCE_TOKEN + "\"],\"destination_tokens\":[\"" + DEST_TOKEN + "\"]}";
            String file = file("/se-a/to-tape/f1", "/se-b/tape-dst/f1", adler);
            String id = submit(vo("atlas"), List.of(file.substring(0, file.length() - 1) + tokens), "{\"archive_timeout\":120}");
            await().atMost(Duration.ofSeconds(30)).until(() -> "ARCHIVING".equals(files(vo("atlas"), id).getString("[0].file_state")));
            given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().body("job_state", equalTo("ACTIVE"));
            await().atMost(Duration.ofSeconds(5)).until(() -> tape.requests("POST", "/archiveinfo").size() >= 2);
            assertEquals("ARCHIVING", files(vo("atlas"), id).getString("[0].file_state"));
            tape.reachTapeAfter(2);
            assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(20), "FINISHED", "FAILED"), files(vo("atlas"), id).prettify());
            assertEquals(List.of(), tape.refused);
            List<TapeRestServer.Request> asked = tape.requests("POST", "/archiveinfo");
            assertTrue(asked.size() >= 4, asked.toString());
            asked.forEach(r -> {
                assertEquals("{\"paths\":[\"/se-b/tape-dst/f1\"]}", r.body().toString());
                assertEquals("Bearer " + DEST_TOKEN, r.authorization(), r.toString());
            });
            // nothing was staged or released: the source is on disk
            assertEquals(asked.size(), tape.requests.size(), tape.requests.toString());
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/to-tape/f1")), Files.readAllBytes(nginx.file("/se-b/tape-dst/f1")));
        }
    }

    /** A copy that does not reach tape within archive_timeout fails with FTS3's reason, in phase ARCHIVING. */
    @Test
    void aCopyNotOnTapeWithinArchiveTimeoutFails() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(-1, -1)) {
            registerTapeSe("NGX-TAPE-DST2", "/se-b/tape-dst2", tape);
            write("/se-a/to-tape2/f1", 20_000, 44);
            String id = submit(vo("atlas"), List.of(file("/se-a/to-tape2/f1", "/se-b/tape-dst2/f1", null)), "{\"archive_timeout\":1,\"retry\":0}");
            assertEquals("FAILED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"));
            JsonPath f = files(vo("atlas"), id);
            assertEquals("archive timeout has been exceeded", f.getString("[0].reason"), f.prettify());
            assertEquals("ARCHIVING", f.getString("[0].error_phase"), f.prettify());
            assertEquals(List.of(), tape.refused);
            assertTrue(Files.exists(nginx.file("/se-b/tape-dst2/f1")), "the copy itself was made");
        }
    }

    /**
     * Rucio's tape submission (archive_timeout with dst_file_report) onto a file already on the tape SE: FAILED as
     * FTS3's, and dst_file says where the file is as the SE's archiveinfo tells (on tape and on disk here).
     */
    @Test
    void anExistingDestinationOnATapeSeIsReportedWithItsLocality() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(-1, 0)) {
            registerTapeSe("NGX-TAPE-DST3", "/se-b/tape-dst3", tape);
            write("/se-a/to-tape3/f1", 20_000, 45);
            String there = write("/se-b/tape-dst3/f1", 20_000, 46);
            String id = submit(vo("atlas"), List.of(file("/se-a/to-tape3/f1", "/se-b/tape-dst3/f1", null)),
                    "{\"archive_timeout\":120,\"dst_file_report\":true,\"retry\":0}");
            assertEquals("FAILED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"));
            JsonPath f = files(vo("atlas"), id);
            assertEquals("DEST_EXISTS", f.getString("[0].error_code"), f.prettify());
            assertEquals(20_000, f.getLong("[0].file_metadata.dst_file.file_size"), f.prettify());
            assertEquals(there, f.getString("[0].file_metadata.dst_file.checksum_value"));
            assertEquals(true, f.getBoolean("[0].file_metadata.dst_file.file_on_tape"));
            assertEquals(true, f.getBoolean("[0].file_metadata.dst_file.file_on_disk"));
            assertEquals("{\"paths\":[\"/se-b/tape-dst3/f1\"]}", tape.requests("POST", "/archiveinfo").get(0).body().toString());
            assertEquals(List.of(), tape.refused);
        }
    }

    static String multihop(String params, String... hops) {
        List<String> files = new ArrayList<>();
        for (int i = 0; i + 1 < hops.length; i++) {
            files.add(file(hops[i], hops[i + 1], null));
        }
        return "{\"files\":[" + String.join(",", files) + "],\"params\":" + params + "}";
    }

    /**
     * FTS3's multihop over three SEs: the second hop copies what the first wrote, so it can only have run after it; the
     * intermediate destination, already there, is overwritten (overwrite_hop), the chain is one job of type H.
     */
    @Test
    void aMultihopJobCopiesHopByHopOverThreeSes() throws Exception {
        write("/se-a/hops/f1", 180_000, 31);
        write("/se-b/hops/f1", 1_000, 32);
        String body = multihop("{\"multihop\":true,\"overwrite_hop\":true,\"retry\":0}", "/se-a/hops/f1", "/se-b/hops/f1", "/se-c/hops/f1");
        String id = given().auth().oauth2(vo("atlas")).contentType(ContentType.JSON).body(body).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        JsonPath early = files(vo("atlas"), id);
        if (!"FINISHED".equals(early.getString("find { it.file_index == 0 }.file_state"))) {
            assertEquals("NOT_USED", early.getString("find { it.file_index == 1 }.file_state"), early.prettify());
        }
        awaitJob(vo("atlas"), id, Duration.ofSeconds(60), "FINISHED", "FAILED", "FINISHEDDIRTY", "CANCELED");
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().body("job_state", equalTo("FINISHED")).body("job_type", equalTo("H"))
                .body("source_se", equalTo("NGX-A")).body("dest_se", equalTo("NGX-C"));
        JsonPath done = files(vo("atlas"), id);
        assertEquals(List.of("FINISHED", "FINISHED"), done.getList("file_state"), done.prettify());
        // no hop was staged
        assertEquals(Arrays.asList(null, null), done.getList("staging_start"));
        assertTrue(done.getString("find { it.file_index == 0 }.finish_time").compareTo(done.getString("find { it.file_index == 1 }.start_time")) <= 0,
                done.prettify());
        byte[] original = Files.readAllBytes(nginx.file("/se-a/hops/f1"));
        assertArrayEquals(original, Files.readAllBytes(nginx.file("/se-b/hops/f1")));
        assertArrayEquals(original, Files.readAllBytes(nginx.file("/se-c/hops/f1")));
    }

    /** A hop that fails for good breaks the chain: the hops after it stay NOT_USED and never run; the job FAILED. */
    @Test
    void aFailedHopLeavesTheHopsAfterItUnusedAndTheJobFailed() throws Exception {
        write("/se-a/broken/f1", 90_000, 41);
        // the second hop's destination is there already and intermediate hops overwrite only with overwrite_hop
        write("/se-c/broken/f1", 1_000, 42);
        String body = multihop("{\"multihop\":true,\"retry\":2,\"retry_delay\":0}", "/se-a/broken/f1", "/se-b/broken/f1",
                "/se-c/broken/f1", "/se-a/broken/back/f1");
        String id = given().auth().oauth2(vo("atlas")).contentType(ContentType.JSON).body(body).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(60), "FINISHED", "FAILED", "FINISHEDDIRTY", "CANCELED");
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().body("job_state", equalTo("FAILED"));
        JsonPath f = files(vo("atlas"), id);
        assertEquals("FINISHED", f.getString("find { it.file_index == 0 }.file_state"), f.prettify());
        assertEquals("FAILED", f.getString("find { it.file_index == 1 }.file_state"), f.prettify());
        assertEquals("DEST_EXISTS", f.getString("find { it.file_index == 1 }.error_code"), f.prettify());
        assertEquals("NOT_USED", f.getString("find { it.file_index == 2 }.file_state"), f.prettify());
        assertNull(f.get("find { it.file_index == 2 }.start_time"));
        assertFalse(Files.exists(nginx.file("/se-a/broken/back/f1")), "a hop after the break must not run");
        assertEquals(1_000, Files.size(nginx.file("/se-c/broken/f1")));
    }

    /** A chain whose hop does not start where the previous one ended is refused, as FTS3 does, and nothing is stored. */
    @Test
    void aBrokenChainIsRefused() {
        String body = multihop("{\"multihop\":true}", "/se-a/gap/f1", "/se-b/gap/f1").replace("]}],", "]}," + file("/se-b/gap/other", "/se-c/gap/f1", null) + "],");
        given().auth().oauth2(vo("atlas")).contentType(ContentType.JSON).body(body).post("/jobs").then().statusCode(400)
                .contentType("application/problem+json").body("errors.field", hasItem("files[1].sources"));
    }

    static ValidatableResponse ban(String kind, String body) {
        return given().auth().oauth2(admin()).contentType(ContentType.JSON).body(body).post("/ban/" + kind).then();
    }

    static String fileState(String token, String id) {
        return files(token, id).getString("[0].file_state");
    }

    /**
     * FTS3's SE ban on an SE of its own (the other tests' SEs stay unbanned): wait with allow_submit holds a new
     * file queued; cancel cancels it ("Storage banned"), answers its job and refuses submissions; the unban lets
     * them through again.
     */
    @Test
    void aBannedSeHoldsOrCancelsItsFilesAndRefusesSubmissions() throws Exception {
        Files.createDirectories(nginx.file("/se-ban"));
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"BAN-SITE\",\"baseUrls\":{\"http\":\""
                + nginx.url("/se-ban") + "\"},\"access\":{\"open\":true}}").put("/endpoints/NGX-BAN").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        write("/se-a/banned/f1", 50_000, 51);
        // only administrators ban
        given().auth().oauth2(vo("atlas")).contentType(ContentType.JSON).body("{\"storage\":\"NGX-BAN\"}").post("/ban/se").then().statusCode(403);
        ban("se", "{\"storage\":\"NGX-BAN\",\"status\":\"cancel\",\"allow_submit\":true}").statusCode(400)
                .contentType("application/problem+json");
        try {
            ban("se", "{\"storage\":\"NGX-BAN\",\"status\":\"wait\",\"allow_submit\":true,\"message\":\"downtime\"}").statusCode(200)
                    .body("$", hasSize(0));
            given().auth().oauth2(admin()).get("/ban/se").then().statusCode(200).body("find { it.se == 'NGX-BAN' }.status", equalTo("WAIT_AS"))
                    .body("find { it.se == 'NGX-BAN' }.message", equalTo("downtime"));
            String held = submit(vo("atlas"), List.of(file("/se-a/banned/f1", "/se-ban/f1", null)), "{}");
            Thread.sleep(1500);
            assertEquals("SUBMITTED", fileState(vo("atlas"), held), "a file of a banned SE must stay queued");
            ban("se", "{\"storage\":\"NGX-BAN\",\"status\":\"cancel\"}").statusCode(200).body("$", equalTo(List.of(held)));
            JsonPath f = files(vo("atlas"), held);
            assertEquals("CANCELED", f.getString("[0].file_state"));
            assertEquals("Storage banned", f.getString("[0].reason"));
            given().auth().oauth2(vo("atlas")).get("/jobs/" + held).then().body("job_state", equalTo("CANCELED"));
            given().auth().oauth2(vo("atlas")).contentType(ContentType.JSON)
                    .body("{\"files\":[" + file("/se-a/banned/f1", "/se-ban/f2", null) + "]}").post("/jobs").then().statusCode(403)
                    .contentType("application/problem+json");
        } finally {
            given().auth().oauth2(admin()).queryParam("storage", "NGX-BAN").delete("/ban/se").then().statusCode(204);
        }
        given().auth().oauth2(admin()).get("/ban/se").then().statusCode(200).body("se", Matchers.not(hasItem("NGX-BAN")));
        String after = submit(vo("atlas"), List.of(file("/se-a/banned/f1", "/se-ban/f3", null)), "{}");
        assertEquals("FINISHED", awaitJob(vo("atlas"), after, Duration.ofSeconds(30), "FINISHED", "FAILED", "CANCELED"));
        assertFalse(Files.exists(nginx.file("/se-ban/f1")));
    }

    /** A wait ban with a timeout holds the file, then cancels it once the timeout passed. */
    @Test
    void aWaitBanCancelsWhatItHeldOnceItsTimeoutPassed() throws Exception {
        Files.createDirectories(nginx.file("/se-ban-wait"));
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"BAN-SITE\",\"baseUrls\":{\"http\":\""
                + nginx.url("/se-ban-wait") + "\"},\"access\":{\"open\":true}}").put("/endpoints/NGX-BAN-WAIT").then()
                .statusCode(anyOf(equalTo(200), equalTo(201)));
        write("/se-a/banned-wait/f1", 50_000, 52);
        try {
            ban("se", "{\"storage\":\"NGX-BAN-WAIT\",\"status\":\"WAIT\",\"allow_submit\":true,\"timeout\":\"3\"}").statusCode(200);
            String held = submit(vo("atlas"), List.of(file("/se-a/banned-wait/f1", "/se-ban-wait/f1", null)), "{}");
            assertEquals("CANCELED", awaitJob(vo("atlas"), held, Duration.ofSeconds(20), "CANCELED", "FINISHED", "FAILED"));
            assertEquals(BanService.WAIT_EXPIRED, files(vo("atlas"), held).getString("[0].reason"));
            assertFalse(Files.exists(nginx.file("/se-ban-wait/f1")));
        } finally {
            given().auth().oauth2(admin()).queryParam("storage", "NGX-BAN-WAIT").delete("/ban/se").then().statusCode(204);
        }
    }

    /** FTS3's user ban: the user's unfinished jobs are cancelled ("User banned") and answered, its submissions refused. */
    @Test
    void aBannedUsersJobsAreCancelledAndItsSubmissionsRefused() throws Exception {
        String user = FerryTestResource.token(DevTokens.Claims.of("user-to-ban", "atlas", "transfer:submit"));
        write("/se-a/banned-user/f1", 50_000, 53);
        // held by a wait ban, so that it is still unfinished when its user is banned
        ban("se", "{\"storage\":\"NGX-SLOW\",\"status\":\"wait\",\"allow_submit\":true}").statusCode(200);
        String id;
        try {
            id = submit(user, List.of(file("/se-a/banned-user/f1", "/slow/banned-user/f1", null)), "{}");
            ban("dn", "{\"user_dn\":\"user-to-ban\"}").statusCode(200).body("$", equalTo(List.of(id)));
        } finally {
            given().auth().oauth2(admin()).queryParam("storage", "NGX-SLOW").delete("/ban/se").then().statusCode(204);
        }
        given().auth().oauth2(user).get("/jobs/" + id).then().body("job_state", equalTo("CANCELED"));
        assertEquals("User banned", files(user, id).getString("[0].reason"));
        given().auth().oauth2(admin()).get("/ban/dn").then().statusCode(200).body("dn", hasItem("user-to-ban"));
        given().auth().oauth2(user).contentType(ContentType.JSON).body("{\"files\":[" + file("/se-a/banned-user/f1", "/se-b/banned-user/f1", null) + "]}")
                .post("/jobs").then().statusCode(403);
        // an administrator cannot ban itself
        ban("dn", "{\"user_dn\":\"test-user\"}").statusCode(409);
        given().auth().oauth2(admin()).queryParam("user_dn", "user-to-ban").delete("/ban/dn").then().statusCode(204);
        submit(user, List.of(file("/se-a/banned-user/f1", "/se-b/banned-user/f1", null)), "{}");
    }

    @Test
    void aFloodOfHighPriorityJobsFromOneVoDoesNotStopAnother() throws Exception {
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"min_active\":1,\"max_active\":2,\"optimizer_mode\":\"fixed\"}")
                .put("/links/NGX-SLOW/NGX-C").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        List<String> flood = new ArrayList<>();
        // nginx lets a second's worth (256 KiB) through at once: 384 KiB files take about half a second each
        for (int i = 0; i < 30; i++) {
            write("/slow/flood/a" + i, 384 << 10, 100 + i);
            flood.add(file("/slow/flood/a" + i, "/se-c/flood/a" + i, null));
        }
        List<String> few = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            write("/slow/flood/b" + i, 384 << 10, 200 + i);
            few.add(file("/slow/flood/b" + i, "/se-c/flood/b" + i, null));
        }
        String atlasJob = submit(vo("atlas"), flood, "{\"priority\":5}");
        Thread.sleep(300);
        String cmsJob = submit(vo("cms"), few, "{\"priority\":1}");
        awaitJob(vo("cms"), cmsJob, Duration.ofSeconds(60), "FINISHED", "FAILED", "FINISHEDDIRTY");
        long atlasDone = files(vo("atlas"), atlasJob).getList("file_state").stream().filter("FINISHED"::equals).count();
        // strict priority would finish all 30 atlas files first; with equal weights cms gets half the link
        assertTrue(atlasDone <= 18, "atlas had finished " + atlasDone + " of 30 files when cms's 6 were done");
        given().auth().oauth2(vo("cms")).get("/jobs/" + cmsJob).then().body("job_state", equalTo("FINISHED"));
        awaitJob(vo("atlas"), atlasJob, Duration.ofSeconds(90), "FINISHED", "FAILED", "FINISHEDDIRTY");
        assertEquals("FINISHED", given().auth().oauth2(vo("atlas")).get("/jobs/" + atlasJob).then().extract().path("job_state"));
        // the link's max_active (2) was never exceeded, counting both VOs' files
        List<long[]> spans = new ArrayList<>(spans(atlasJob));
        spans.addAll(spans(cmsJob));
        int most = 0;
        for (long[] a : spans) {
            int overlapping = 0;
            for (long[] b : spans) {
                if (b[0] <= a[0] && a[0] < b[1]) {
                    overlapping++;
                }
            }
            most = Math.max(most, overlapping);
        }
        assertTrue(most <= 2, "up to " + most + " transfers ran at once on a link with max_active 2");
        assertEquals(2, most, "the link should have been used at its max_active");
    }

    static ValidatableResponse post(String token, String file, String params) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).body("{\"files\":[" + file + "],\"params\":" + params + "}")
                .post("/jobs").then();
    }

    static void register(String name, String body) {
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body(body).put("/endpoints/" + name).then()
                .statusCode(anyOf(equalTo(200), equalTo(201)));
    }

    @Test
    void encodedDotSegmentsAndSeparatorsInAJobNeverLeaveTheSe() throws Exception {
        String adler = write("/se-a/escape/f1", 10_000, 91);
        Files.writeString(nginx.file("/secret"), "not for transfer");
        // nginx decodes before it resolves dot-segments: each of these names /outside/x on the server
        for (String path : new String[]{"/se-b/%2E%2e/outside/x", "/se-b/..%2foutside/x", "/se-b/%2e./outside/x", "/se-b/.%2e/outside/x",
                "/se-b/a%2F..%2F..%2Foutside/x", "/se-b/..%5Coutside/x", "/se-b/outside%00x", "/se-b/..;/outside/x"}) {
            post(vo("atlas"), file("/se-a/escape/f1", path, adler), "{}").statusCode(422).contentType("application/problem+json")
                    .body("code", equalTo("INVALID_STORAGE_URL")).body("errors.field", Matchers.hasItem("files[0].destinations[0]"));
        }
        for (String path : new String[]{"/se-a/%2E%2e/secret", "/se-a/.%2e/secret", "/se-a/%2e./secret", "/se-a/..%2fsecret"}) {
            post(vo("atlas"), file(path, "/se-b/escape/stolen", null), "{}").statusCode(422)
                    .body("code", equalTo("INVALID_STORAGE_URL")).body("errors.field", Matchers.hasItem("files[0].sources[0]"));
        }
        Thread.sleep(1500);
        assertFalse(Files.exists(nginx.file("/outside")), "a job wrote outside every SE");
        assertFalse(Files.exists(nginx.file("/se-b/escape/stolen")), "a job read outside every SE");
    }

    @Test
    void aFileSeIsConfinedToItsOwnBaseDirectoryNotOnlyToTheEngineRoots() throws Exception {
        Path root = WithEngine.FILE_ROOT;
        Path seA = Files.createDirectories(root.resolve("fse-a"));
        Path seB = Files.createDirectories(root.resolve("fse-b"));
        Path other = Files.createDirectories(root.resolve("other"));
        register("FILE-A", "{\"site\":\"FILE-SITE\",\"baseUrls\":{\"file\":\"" + seA.toUri() + "\"},\"access\":{\"open\":true}}");
        register("FILE-B", "{\"site\":\"FILE-SITE\",\"baseUrls\":{\"file\":\"" + seB.toUri() + "\"},\"access\":{\"open\":true}}");
        Files.writeString(seA.resolve("f1"), "a file of FILE-A");
        Files.writeString(other.resolve("secret"), "a file in the engine's roots but of no SE");
        String source = seA.resolve("f1").toUri().toString();
        for (String evil : new String[]{"/.%2e/other/x", "/%2E%2e/other/x", "/..%2Fother/x", "/%2e./other/x"}) {
            post(vo("atlas"), "{\"sources\":[\"" + source + "\"],\"destinations\":[\"file://" + seB + evil + "\"]}", "{}").statusCode(422)
                    .body("code", equalTo("INVALID_STORAGE_URL")).body("errors.field", Matchers.hasItem("files[0].destinations[0]"));
        }
        // links inside an SE's directory that lead elsewhere in the engine's roots: the mover refuses them
        Files.createSymbolicLink(seB.resolve("link"), other);
        Files.createSymbolicLink(seA.resolve("peek"), other.resolve("secret"));
        String out = submit(vo("atlas"), List.of("{\"sources\":[\"" + source + "\"],\"destinations\":[\"file://" + seB + "/link/x\"]}"),
                "{\"retry\":2}");
        String in = submit(vo("atlas"), List.of("{\"sources\":[\"" + seA.resolve("peek").toUri() + "\"],\"destinations\":[\"file://" + seB
                + "/peeked\"]}"), "{\"retry\":2}");
        for (String id : List.of(out, in)) {
            awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED", "FINISHED");
            JsonPath f = files(vo("atlas"), id);
            assertEquals("PERMISSION_DENIED", f.getString("[0].error_code"), f.prettify());
        }
        assertFalse(Files.exists(other.resolve("x")), "a copy went through a link out of its SE");
        assertFalse(Files.exists(seB.resolve("peeked")), "a copy read through a link out of its SE");
    }

    @Test
    void theTokenGivenForALogicalSourceGoesWithEachOfItsReplicas() throws Exception {
        for (String[] se : new String[][]{{"TOK-A", "/tok-a"}, {"TOK-B", "/tok-b"}}) {
            given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"TOK-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url(se[1])
                            + "\"},\"access\":{\"open\":true},\"allowServiceIdentity\":false}")
                    .put("/endpoints/" + se[0]).then().statusCode(anyOf(equalTo(200), equalTo(201)));
        }
        String adler = write("/tok-a/handle/f", 30_000, 940);
        // two replicas, the first gone: the second is tried with the same token
        replicaTurls.add(nginx.url("/tok-a/handle/gone"));
        replicaTurls.add(nginx.url("/tok-a/handle/f"));
        try {
            String id = submit(vo("atlas"), List.of("{\"sources\":[\"handle:20.500.1/tokens\"],\"destinations\":[\"" + nginx.url("/tok-b/handle/f")
                    + "\"],\"checksum\":\"ADLER32:" + adler + "\",\"source_tokens\":[\"" + SOURCE_TOKEN + "\"],\"destination_tokens\":[\"" + DEST_TOKEN
                    + "\"]}"), "{\"verify_checksum\":\"both\"}");
            awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
            JsonPath f = files(vo("atlas"), id);
            assertEquals("FINISHED", f.getString("[0].file_state"), f.prettify());
            assertEquals(nginx.url("/tok-a/handle/f"), f.getString("[0].source_surl"));
            assertArrayEquals(Files.readAllBytes(nginx.file("/tok-a/handle/f")), Files.readAllBytes(nginx.file("/tok-b/handle/f")));
        } finally {
            replicaTurls.clear();
            given().auth().oauth2(admin()).delete("/endpoints/TOK-A");
            given().auth().oauth2(admin()).delete("/endpoints/TOK-B");
        }
    }

    @Test
    void aResolvedReplicaThatEscapesItsSeIsNotUsed() throws Exception {
        Files.writeString(nginx.file("/not-a-replica"), "outside every SE");
        replicaTurls.add(nginx.url("/se-a/%2e%2E/not-a-replica"));
        try {
            post(vo("atlas"), "{\"sources\":[\"handle:20.500.1/escape\"],\"destinations\":[\"" + nginx.url("/se-b/resolved/f1") + "\"]}", "{}")
                    .statusCode(422).contentType("application/problem+json").body("code", equalTo("UNRESOLVED_SOURCE"))
                    .body("errors.field", Matchers.hasItem("files[0].sources[0]"));
        } finally {
            replicaTurls.clear();
        }
        // a handle: source is asked for as a handle, never by its bare text (which a bound logical name could match)
        assertTrue(resolverQueries.stream().anyMatch(q -> q.contains("id=handle:20.500.1/escape")), resolverQueries.toString());
        Thread.sleep(1500);
        assertFalse(Files.exists(nginx.file("/se-b/resolved/f1")));
    }

    @Test
    void rightsRemovedAfterSubmissionFailTheFileForGoodBeforeAnyByteIsWritten() throws Exception {
        // the file waits on "tape" until the test lets it go, so the rights change lands between submission and copy
        try (HeldOnTape tape = new HeldOnTape("/se-a/tape-r/f1")) {
            register("NGX-TAPE-R", "{\"site\":\"TAPE-SITE\",\"needsPrepare\":true,\"baseUrls\":{\"http\":\"" + nginx.url("/se-a/tape-r")
                    + "\",\"tape\":\"" + tape.url() + "\"},\"access\":{\"open\":true}}");
            String rights = "{\"site\":\"RIGHTS-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url("/se-b/rights") + "\"},"
                    + "\"access\":{\"rules\":[{\"vo\":\"%s\",\"read\":true,\"write\":true}]}}";
            register("NGX-RIGHTS", rights.formatted("atlas"));
            Files.createDirectories(nginx.file("/se-b/rights"));
            write("/se-a/tape-r/f1", 50_000, 12);
            String id = submit(vo("atlas"), List.of(file("/se-a/tape-r/f1", "/se-b/rights/f1", null)), "{\"retry\":3,\"retry_delay\":0}");
            awaitJob(vo("atlas"), id, Duration.ofSeconds(20), "STAGING");
            register("NGX-RIGHTS", rights.formatted("cms"));
            releaseAndExpectRefusedForGood(tape, id, "atlas", "/se-b/rights/f1", "a VO without write rights wrote");
        }
    }

    @Test
    void aClosedSeRegisteredAtANestedBaseAfterSubmissionTakesTheQueuedFileOverBeforeAnyByteIsWritten() throws Exception {
        // the file waits on "tape" until the test lets it go, so the new SE lands between submission and copy
        try (HeldOnTape tape = new HeldOnTape("/se-a/tape-n/f1")) {
            register("NGX-TAPE-N", "{\"site\":\"TAPE-SITE\",\"needsPrepare\":true,\"baseUrls\":{\"http\":\"" + nginx.url("/se-a/tape-n")
                    + "\",\"tape\":\"" + tape.url() + "\"},\"access\":{\"open\":true}}");
            register("NGX-NEST-OPEN", "{\"site\":\"NEST-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url("/se-b/nest") + "\"},\"access\":{\"open\":true}}");
            Files.createDirectories(nginx.file("/se-b/nest/closed"));
            write("/se-a/tape-n/f1", 50_000, 13);
            String id = submit(vo("atlas"), List.of(file("/se-a/tape-n/f1", "/se-b/nest/closed/f1", null)), "{\"retry\":3,\"retry_delay\":0}");
            awaitJob(vo("atlas"), id, Duration.ofSeconds(20), "STAGING");
            // the operator protects a path below the open SE with a closed one
            register("NGX-NEST-CLOSED", "{\"site\":\"NEST-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url("/se-b/nest/closed") + "\"}}");
            releaseAndExpectRefusedForGood(tape, id, "NGX-NEST-CLOSED", "/se-b/nest/closed/f1",
                    "a file queued under the open SE was written below the closed one");
        }
    }

    /**
     * Lets the held file go once the engine's SE catalogue (at most a second old) has the test's change, and checks
     * that the file then fails for good with PERMISSION_DENIED (reason naming {@code reasonNames}), without a retry and
     * without a byte at {@code destination}.
     */
    private void releaseAndExpectRefusedForGood(HeldOnTape tape, String id, String reasonNames, String destination,
                                                String writtenMessage) throws Exception {
        Thread.sleep(1500);
        tape.release();
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED", "FINISHED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("PERMISSION_DENIED", f.getString("[0].error_code"), f.prettify());
        assertTrue(f.getString("[0].reason").contains(reasonNames), f.getString("[0].reason"));
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id + "/files/" + f.getLong("[0].file_id") + "/retries").then().statusCode(200)
                .body("$", hasSize(0));
        assertFalse(Files.exists(nginx.file(destination)), writtenMessage);
    }

    /**
     * A stand-in WLCG Tape REST endpoint holding one file on tape until {@link #release()}: a test changes the SE
     * catalogue while the file is queued, between its submission and its copy.
     */
    static final class HeldOnTape implements AutoCloseable {
        private final AtomicBoolean onDisk = new AtomicBoolean();
        private final HttpServer server;

        HeldOnTape(String path) throws IOException {
            server = HttpServer.create(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/api/v1/stage", exchange -> {
                exchange.getRequestBody().readAllBytes();
                boolean post = exchange.getRequestMethod().equals("POST");
                byte[] body = (post ? "{\"requestId\":\"held:" + path + "\"}"
                        : "{\"id\":\"held:" + path + "\",\"files\":[{\"path\":\"" + path + "\",\"onDisk\":" + onDisk.get() + "}]}").getBytes();
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(post ? 201 : 200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1";
        }

        void release() {
            onDisk.set(true);
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
