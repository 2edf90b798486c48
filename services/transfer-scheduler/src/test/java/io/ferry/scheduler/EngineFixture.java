package io.ferry.scheduler;

import com.sun.net.httpserver.HttpServer;
import io.ferry.dev.DevTokens;
import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.FerryTestResource;
import io.ferry.dev.FreePort;
import io.ferry.dev.NginxWebDav;
import io.ferry.dev.S3Server;
import io.ferry.dev.testca.TestTokenIssuer;
import io.ferry.scheduler.delivery.StompBroker;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.queue.EngineIdentity;
import io.ferry.scheduler.transitions.FileQueue;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.Adler32;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;

/**
 * The engine on ({@link WithEngine}'s short periods) against a real nginx with WebDAV, a stand-in handle-resolver and an
 * IAM-like token issuer, with the helpers the end-to-end tests of each feature share: they extend it.
 */
public abstract class EngineFixture {

    /** The engine on, with short periods so that the tests run in seconds. */
    public static class WithEngine implements QuarkusTestProfile {
        /** The engine's file:// root; SEs registered below it have their own, narrower base directories. */
        public static final Path FILE_ROOT = tempDirectory();
        /** A stand-in handle-resolver listens here ({@link #startResolver}). */
        public static final int RESOLVER_PORT = FreePort.find();
        /** An IAM-like issuer that exchanges tokens for the scheduler listens here ({@link #startIssuerAndNginx}). */
        public static final int ISSUER_PORT = FreePort.find();
        public static final String EXCHANGING_ISSUER = "https://iam.exchange.test/";
        /** The STOMP broker for FTS3's monitoring messages; absent until a test starts one ({@code io.ferry.scheduler.delivery.StompBroker}). */
        public static final int STOMP_PORT = FreePort.find();

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
                    Map.entry("ferry.identity.grants.iam-fts.roles", "transfer:read,transfer:submit"),
                    // DirectoryJobTest's S3 SE: s3proxy's one account
                    Map.entry("ferry.scheduler.s3.\"DIR-S3\".access-key", S3Server.IDENTITY),
                    Map.entry("ferry.scheduler.s3.\"DIR-S3\".secret-key", S3Server.CREDENTIAL));
        }

        private static Path tempDirectory() {
            try {
                return Files.createTempDirectory("ferry-engine-files").toRealPath();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    protected static NginxWebDav nginx;

    protected static HttpServer resolver;

    /** The replicas' transport URLs the stand-in resolver answers with. */
    protected static final List<String> replicaTurls = new CopyOnWriteArrayList<>();

    /** The ids the stand-in resolver was asked about (query strings of its requests). */
    protected static final List<String> resolverQueries = new CopyOnWriteArrayList<>();

    /** Tokens as an IAM would issue them for storage, one for each of two SEs that want one (tok-a, tok-b). */
    protected static final String SOURCE_TOKEN = storageToken("storage.read:/");

    protected static final String DEST_TOKEN = storageToken("storage.modify:/ storage.read:/");

    protected static String storageToken(String scope) {
        return FerryTestResource.token(new DevTokens.Claims("rucio", null, null, scope, Duration.ofHours(1), "https://iam.test/",
                "https://wlcg.cern.ch/jwt/v1/any"));
    }

    protected static TestTokenIssuer issuer;

    protected static final int NGINX_PORT = FreePort.find();

    /** Users of the exchanging issuer who submit with its token and bring no storage tokens. */
    protected static final List<String> EXCHANGE_USERS = List.of("alice", "bob");

    /** What the issuer answers a request for the job's read token at xch-a and modify token at xch-b, per user. */
    protected static final Map<String, String> EXCHANGED = new LinkedHashMap<>();

    /**
     * The issuer first: xch-a and xch-b accept only the tokens it hands out for the job-wide scopes of the exchange
     * tests' files (storage.read:/run at xch-a, storage.modify:/run/out at xch-b, audience the nginx origin).
     */
    @BeforeAll
    protected static void startIssuerAndNginx() throws Exception {
        // the engine's file:// root outlives the test classes that share the running scheduler; each removes it when done
        Files.createDirectories(WithEngine.FILE_ROOT);
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

    protected static String exchangeAudience() {
        return "http://127.0.0.1:" + NGINX_PORT;
    }

    @BeforeAll
    protected static void startResolver() throws Exception {
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
    protected static void stopNginx() throws Exception {
        nginx.close();
        resolver.stop(0);
        issuer.close();
        DirectoryTrees.delete(WithEngine.FILE_ROOT);
    }

    protected static String admin() {
        return FerryTestResource.token(null, "transfer:admin");
    }

    protected static String vo(String name) {
        return FerryTestResource.token(name, "transfer:submit");
    }

    @BeforeEach
    protected void storageEndpoints() {
        for (String[] se : new String[][]{{"NGX-A", "/se-a"}, {"NGX-B", "/se-b"}, {"NGX-C", "/se-c"}, {"NGX-SLOW", "/slow"}}) {
            given().auth().oauth2(admin()).contentType(ContentType.JSON)
                    .body("{\"site\":\"" + se[0] + "-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url(se[1]) + "\"},\"access\":{\"open\":true}}")
                    .put("/endpoints/" + se[0]).then().statusCode(anyOf(equalTo(200), equalTo(201)));
        }
    }

    /** Writes random bytes to the nginx root; answers their ADLER32 as 8 hex digits. */
    protected static String write(String path, int size, long seed) throws Exception {
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

    protected static String file(String src, String dst, String adler) {
        return "{\"sources\":[\"" + nginx.url(src) + "\"],\"destinations\":[\"" + nginx.url(dst) + "\"]"
                + (adler == null ? "" : ",\"checksum\":\"ADLER32:" + adler + "\"") + "}";
    }

    protected static String submit(String token, List<String> files, String params) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).body("{\"files\":[" + String.join(",", files) + "],\"params\":" + params + "}")
                .post("/jobs").then().statusCode(200).extract().path("job_id");
    }

    protected static String awaitJob(String token, String id, Duration within, String... states) {
        List<String> wanted = Arrays.asList(states);
        String[] state = new String[1];
        await().atMost(within).pollInterval(Duration.ofMillis(200)).until(() -> {
            state[0] = given().auth().oauth2(token).get("/jobs/" + id).then().statusCode(200).extract().path("job_state");
            return wanted.contains(state[0]);
        });
        return state[0];
    }

    protected static JsonPath files(String token, String id) {
        return given().auth().oauth2(token).get("/jobs/" + id + "/files").then().statusCode(200).extract().jsonPath();
    }

    protected long count(String sql) {
        return pool.query(sql).execute().await().atMost(Duration.ofSeconds(10)).iterator().next().getLong(0);
    }

    /**
     * The value of the series of {@code name} on /q/metrics whose labels include {@code labels} (name, value, ...), or
     * null when there is none.
     */
    protected static Double metric(String name, String... labels) {
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

    @Inject
    protected Pool pool;

    @Inject
    protected EngineIdentity identity;

    @Inject
    protected FileQueue queue;

    /** Moves one file and answers its id once its job is FINISHED. */
    protected long finishedFile(String name) throws Exception {
        String adler = write("/se-a/" + name + "/f1", 100_000, name.hashCode());
        String id = submit(vo("atlas"), List.of(file("/se-a/" + name + "/f1", "/se-b/" + name + "/f1", adler)), "{}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED");
        return files(vo("atlas"), id).getLong("[0].file_id");
    }

    /** Puts a file back to ACTIVE as if {@code owner} had claimed it again; answers that claim. */
    protected ClaimedFile claimedAgainBy(long fileId, String owner) {
        return pool.withTransaction(c -> c.preparedQuery("UPDATE transfer_file SET state = 'ACTIVE', lease_owner = $2, "
                        + "lease_until = now() + interval '1 hour', claim_epoch = claim_epoch + 1 WHERE file_id = $1").execute(Tuple.of(fileId, owner))
                .chain(x -> c.preparedQuery("UPDATE job SET state = 'ACTIVE', finished_at = NULL WHERE job_id = (SELECT job_id FROM transfer_file "
                        + "WHERE file_id = $1)").execute(Tuple.of(fileId)))
                .chain(x -> queue.read(c, fileId))).await().atMost(Duration.ofSeconds(10));
    }

    protected String stateOf(long fileId) {
        return pool.preparedQuery("SELECT state FROM transfer_file WHERE file_id = $1").execute(Tuple.of(fileId)).await()
                .atMost(Duration.ofSeconds(10)).iterator().next().getString(0);
    }

    protected static ValidatableResponse ban(String kind, String body) {
        return given().auth().oauth2(admin()).contentType(ContentType.JSON).body(body).post("/ban/" + kind).then();
    }

    protected static ValidatableResponse post(String token, String file, String params) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).body("{\"files\":[" + file + "],\"params\":" + params + "}")
                .post("/jobs").then();
    }

    protected static void register(String name, String body) {
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body(body).put("/endpoints/" + name).then()
                .statusCode(anyOf(equalTo(200), equalTo(201)));
    }
}
