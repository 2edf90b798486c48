package io.ferry.resolver;

import io.ferry.dev.FerryTestResource;
import io.ferry.dev.PostgresServer;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.function.Supplier;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Resolutions answered from memory: the same answers as from the database, and never stale once the database has
 * announced a change, whoever made it. (Same test resources as {@link HandleApiTest}: one application for both.)
 */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
@WithTestResource(SchedulerStandIn.class)
class ResolutionCacheTest {

    static final String PREFIX = HandleApiTest.PREFIX;

    @BeforeEach
    void homePrefix() {
        given().auth().oauth2(HandleApiTest.admin()).contentType(ContentType.JSON).body("{}").post("/api/prefixes/" + PREFIX).then().statusCode(200);
    }

    interface Sql<T> {
        T run(Statement st) throws Exception;
    }

    static <T> T onDatabase(Sql<T> work) throws Exception {
        PostgresServer db = FerryTestResource.server();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(FerryTestResource.DATABASE), db.user(), db.password());
             Statement st = c.createStatement()) {
            return work.run(st);
        }
    }

    static void sql(String... statements) throws Exception {
        onDatabase(st -> {
            for (String s : statements) {
                st.execute(s);
            }
            return null;
        });
    }

    static long count(String query) throws Exception {
        return onDatabase(st -> {
            try (java.sql.ResultSet rs = st.executeQuery(query)) {
                rs.next();
                return rs.getLong(1);
            }
        });
    }

    /** Creates {@code h} through the API with a URL value (and an EMAIL and HS_ADMIN value), as HandleApiTest does. */
    static void create(String h, String target) {
        given().auth().oauth2(HandleApiTest.admin()).contentType(ContentType.JSON).body(HandleApiTest.url(h, target, 3600))
                .put("/api/handles/" + h).then().statusCode(200);
    }

    static String target(String handle) {
        return given().get("/api/handles/" + handle).then().statusCode(200).extract().path("values[0].data.value");
    }

    static void eventually(String what, Supplier<Boolean> condition) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!condition.get()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(20);
        }
    }

    /** Resolutions answered from memory so far (the cache's hit counter on /q/metrics). */
    static double hits() {
        return metric("cache_gets_total", "result=\"hit\"");
    }

    static double metric(String name, String tag) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith(name + "{") && l.contains("handle-resolutions") && l.contains(tag))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    /**
     * Waits until resolving {@code h} is answered from memory. The announcement of the write that created it arrives
     * a moment after the write and drops what an early read cached, so the first reads may still miss.
     */
    static void awaitCached(String h) throws InterruptedException {
        eventually(h + " is answered from memory", () -> {
            double before = hits();
            given().get("/api/handles/" + h).then().statusCode(200);
            return hits() > before;
        });
    }

    @Test
    void cachedAnswersAreTheDatabaseAnswersByteForByte() throws Exception {
        String h = PREFIX + "/Same-" + System.nanoTime();
        create(h, "https://data.ral.example/same");
        awaitCached(h);
        // A plain GET is answered from memory; with filters that select every value it goes through the database path.
        Response cached = given().get("/api/handles/" + h.toLowerCase()).then().statusCode(200).extract().response();
        Response full = given().get("/api/handles/" + h + "?index=1&index=2&index=100").then().statusCode(200).extract().response();
        assertEquals(full.asString(), cached.asString());
        assertEquals(full.contentType(), cached.contentType());
        assertEquals(full.header("Cache-Control"), cached.header("Cache-Control"));
        assertTrue(cached.header("Cache-Control").contains("max-age=3600"), cached.header("Cache-Control"));
        assertTrue(cached.header("Expires").endsWith(" GMT"), cached.header("Expires"));

        Response redirect = given().redirects().follow(false).get("/" + h).then().statusCode(302).extract().response();
        Response viaJaxRs = given().redirects().follow(false).queryParam("urlappend", "").get("/" + h).then().statusCode(302).extract().response();
        assertEquals("https://data.ral.example/same", redirect.header("Location"));
        assertEquals(viaJaxRs.header("Location"), redirect.header("Location"));
        assertEquals(viaJaxRs.header("Cache-Control"), redirect.header("Cache-Control"));

        // Answers from memory are counted under the URI template JAX-RS gives the same requests, not under their paths
        // (the escaped-slash forms, /api/handles/{handle} and /{handle}, never come from memory: other tests use them).
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        for (String[] path : new String[][]{{"200", "uri=\"/api/handles/"}, {"302", "uri=\"/{prefix"}}) {
            String status = path[0];
            java.util.Set<String> uris = metrics.lines().filter(l -> l.startsWith("http_server_requests_seconds_count{")
                            && l.contains("method=\"GET\"") && l.contains("status=\"" + status + "\"") && l.contains(path[1]) && !l.contains("{handle"))
                    .map(l -> l.replaceAll(".*uri=\"((?:[^\"\\\\]|\\\\.)*)\".*", "$1")).collect(java.util.stream.Collectors.toSet());
            assertEquals(1, uris.size(), status + ": " + uris);
            assertTrue(metrics.lines().noneMatch(l -> l.startsWith("http_server_requests") && l.contains("Same-")), metrics);
        }
    }

    @Inject
    InMemorySpanExporter spans;

    /** Whether a finished span has an attribute (the URL path, the route) that names {@code handle}. */
    private java.util.List<io.opentelemetry.sdk.trace.data.SpanData> spansNaming(String handle) {
        return spans.getFinishedSpanItems().stream()
                .filter(s -> s.getAttributes().asMap().values().stream().anyMatch(v -> String.valueOf(v).contains(handle))).toList();
    }

    @Test
    void aCachedAnswerIsTracedOnlyInsideItsCallersTrace() throws Exception {
        String h = PREFIX + "/Traced-" + System.nanoTime();
        String absent = PREFIX + "/Absent-" + System.nanoTime();
        create(h, "https://data.ral.example/traced");
        awaitCached(h);
        Thread.sleep(300);
        spans.reset();
        String traceId = String.format("%032x", System.nanoTime() | 1L << 60);
        // public lookups from memory with no trace context: answered, counted, not traced
        given().get("/api/handles/" + h).then().statusCode(200);
        given().redirects().follow(false).get("/" + h).then().statusCode(302);
        // the same lookup inside a caller's trace continues it
        given().header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01").get("/api/handles/" + h).then().statusCode(200);
        // a lookup the database answers is traced as before
        given().get("/api/handles/" + absent).then().statusCode(404);
        eventually("the caller's trace and the miss are exported", () -> !spansNaming(absent).isEmpty()
                && spansNaming(h).stream().anyMatch(s -> s.getTraceId().equals(traceId)));
        Thread.sleep(300);
        java.util.List<io.opentelemetry.sdk.trace.data.SpanData> ofCached = spansNaming(h);
        assertEquals(1, ofCached.size(), ofCached.toString());
        assertEquals(traceId, ofCached.get(0).getTraceId());
        assertEquals("00f067aa0ba902b7", ofCached.get(0).getParentSpanId());
    }

    @Test
    void aChangeMadeElsewhereIsSeenAsSoonAsTheDatabaseAnnouncesIt() throws Exception {
        String h = PREFIX + "/elsewhere-" + System.nanoTime();
        create(h, "https://a.example/v1");
        awaitCached(h);

        // A change the database does not announce (triggers off for this session) proves the answer comes from memory.
        sql("SET session_replication_role = replica",
                "UPDATE handle_value SET data_value = to_jsonb('https://a.example/unannounced'::text) WHERE handle = '" + h + "' AND idx = 1");
        assertEquals("https://a.example/v1", target(h));

        // Any announced change (another replica, an operator's SQL) is seen at once.
        sql("UPDATE handle_value SET data_value = to_jsonb('https://a.example/v2'::text) WHERE handle = '" + h + "' AND idx = 1");
        eventually("the announced change is resolved", () -> "https://a.example/v2".equals(target(h)));
        given().redirects().follow(false).get("/" + h).then().statusCode(302).header("Location", "https://a.example/v2");

        sql("UPDATE handle SET tombstoned_at = now(), tombstone_reason = 'tape lost' WHERE handle = '" + h + "'");
        eventually("the tombstone is resolved", () -> given().redirects().follow(false).get("/" + h).statusCode() == 410);

        sql("DELETE FROM handle WHERE handle = '" + h + "'");
        eventually("the deleted handle is gone", () -> given().get("/api/handles/" + h).statusCode() == 404);
    }

    @Test
    void aBulkChangeEmptiesTheCacheAndRefillsIt() throws Exception {
        String stem = PREFIX + "/bulk-" + System.nanoTime() + "-";
        // One statement, so that the handles appear with their values.
        sql("WITH h AS (INSERT INTO handle (handle, prefix) SELECT '" + stem + "' || i, '" + PREFIX + "' FROM generate_series(1, 1500) i "
                + "RETURNING handle) INSERT INTO handle_value (handle, idx, type, data_format, data_value) "
                + "SELECT handle, 1, 'URL', 'string', to_jsonb('https://old.example/' || substr(handle, " + (stem.length() + 1) + ")) FROM h");
        // Announced as one change of everything: the cache is emptied and refilled from the database, with no request.
        long stored = count("SELECT count(*) FROM handle");
        eventually("every stored handle is preloaded", () -> metric("cache_size", "") >= stored);
        assertEquals("https://old.example/7", target(stem + "7"));
        assertEquals("https://old.example/7", target(stem + "7"));

        sql("UPDATE handle_value SET data_value = to_jsonb('https://new.example/' || substr(handle, " + (stem.length() + 1) + ")) "
                + "WHERE handle LIKE '" + stem + "%'");
        eventually("the bulk change is resolved", () -> "https://new.example/7".equals(target(stem + "7")));
        assertEquals("https://new.example/1499", target(stem + "1499"));
        given().redirects().follow(false).get("/" + stem + "1500").then().statusCode(302).header("Location", "https://new.example/1500");
    }
}
