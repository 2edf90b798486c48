package io.ferry.scheduler.monitor;

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

import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The web monitor's aggregates ({@code /monitor/api/*}): counts per link and VO, errors by link and code, each VO
 * seeing its own files only and administrators all; and the page itself, served under its policy. Files are moved
 * to their outcomes in the database, as the engine (off here) would.
 */
@QuarkusTest
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class MonitorApiTest {

    static final String PROBLEM = "application/problem+json";

    @Inject
    Pool pool;

    /** Each test's own SEs and VOs, so that other tests' files in the same database count elsewhere. */
    String source;
    String dest;
    String voA;
    String voB;

    static String admin() {
        return FerryTestResource.token(null, "transfer:admin");
    }

    static String submitter(String vo) {
        return FerryTestResource.token(vo, "transfer:submit");
    }

    @BeforeEach
    void endpoints() {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        source = "MON-A-" + tag;
        dest = "MON-B-" + tag;
        voA = "mona" + tag;
        voB = "monb" + tag;
        for (String[] se : new String[][]{{source, "https://mon-a.example/" + tag}, {dest, "https://mon-b.example/" + tag}}) {
            given().auth().oauth2(admin()).contentType(ContentType.JSON)
                    .body("{\"site\":\"MON-SITE\",\"baseUrls\":{\"https\":\"" + se[1] + "\"},\"access\":{\"open\":true}}")
                    .put("/endpoints/" + se[0]).then().statusCode(anyOf(equalTo(200), equalTo(201)));
        }
    }

    String submit(String vo, int files) {
        StringBuilder body = new StringBuilder("{\"files\":[");
        for (int i = 0; i < files; i++) {
            String tag = dest.substring(6);
            body.append(i == 0 ? "" : ",").append("{\"sources\":[\"https://mon-a.example/").append(tag).append("/f").append(i)
                    .append("\"],\"destinations\":[\"https://mon-b.example/").append(tag).append("/").append(vo).append("/f").append(i).append("\"]}");
        }
        return given().auth().oauth2(submitter(vo)).contentType(ContentType.JSON).body(body.append("],\"params\":{}}").toString())
                .post("/jobs").then().statusCode(200).extract().path("job_id");
    }

    List<Long> fileIds(String job) {
        return pool.preparedQuery("SELECT file_id FROM transfer_file WHERE job_id = $1 ORDER BY file_index").execute(Tuple.of(UUID.fromString(job)))
                .await().indefinitely().stream().map(r -> r.getLong(0)).toList();
    }

    void finish(long file, long bytes, double throughput) {
        pool.preparedQuery("UPDATE transfer_file SET state = 'FINISHED', bytes_transferred = $2, throughput = $3, start_time = now(), "
                + "finish_time = now() WHERE file_id = $1").execute(Tuple.of(file, bytes, throughput)).await().indefinitely();
    }

    void fail(long file, String code, String reason) {
        pool.preparedQuery("UPDATE transfer_file SET state = 'FAILED', error_code = $2, reason = $3, finish_time = now() WHERE file_id = $1")
                .execute(Tuple.of(file, code, reason)).await().indefinitely();
    }

    void state(long file, String state) {
        pool.preparedQuery("UPDATE transfer_file SET state = $2 WHERE file_id = $1").execute(Tuple.of(file, state)).await().indefinitely();
    }

    void retried(long file, String code, String reason) {
        pool.preparedQuery("INSERT INTO file_retry (file_id, attempt, reason, error_code, error_phase) VALUES ($1, 1, $2, $3, 'TRANSFER')")
                .execute(Tuple.of(file, reason, code)).await().indefinitely();
    }

    /** voA: one finished (1 MiB at 2 MB/s), one failed, one queued that was retried once; voB: one failed, one active. */
    void outcomes() {
        List<Long> a = fileIds(submit(voA, 3));
        List<Long> b = fileIds(submit(voB, 2));
        finish(a.get(0), 1 << 20, 2e6);
        fail(a.get(1), "SRC_NOT_FOUND", "no such file at the source");
        retried(a.get(2), "TIMEOUT", "the copy stalled");
        fail(b.get(0), "SRC_NOT_FOUND", "voB's own reason, not for voA's eyes");
        state(b.get(1), "ACTIVE");
    }

    JsonPath overview(String token, String query) {
        return given().auth().oauth2(token).get("/monitor/api/overview" + query).then().statusCode(200).extract().jsonPath();
    }

    Map<String, Object> linkCounts(JsonPath o) {
        return o.getMap("links.find { it.source_se == '" + source + "' && it.dest_se == '" + dest + "' }.counts");
    }

    @Test
    void overviewCountsEachVosOwnFilesPerLinkAndPerVo() {
        outcomes();
        JsonPath a = overview(submitter(voA), "?window=1h");
        Map<String, Object> link = linkCounts(a);
        assertEquals(0, link.get("active"));
        assertEquals(1, link.get("queued"));
        assertEquals(1, link.get("finished"));
        assertEquals(1, link.get("failed"));
        assertEquals(1 << 20, link.get("bytes_finished"));
        assertEquals(0.5f, ((Number) link.get("success_rate")).floatValue());
        assertEquals(2e6, ((Number) link.get("avg_file_throughput")).doubleValue(), 1);
        assertEquals((1 << 20) / 3600.0, ((Number) link.get("bytes_per_second")).doubleValue(), 0.01);
        assertEquals(List.of(voA), a.getList("vos.vo"), "a VO sees only itself");
        assertEquals(3600, a.getInt("window_seconds"));

        JsonPath b = overview(submitter(voB), "");
        assertEquals(1, linkCounts(b).get("active"));
        assertEquals(0, linkCounts(b).get("finished"));
        assertEquals(0.0f, ((Number) linkCounts(b).get("success_rate")).floatValue());
        assertEquals(List.of(voB), b.getList("vos.vo"));

        JsonPath all = overview(admin(), "?window=6h");
        Map<String, Object> both = linkCounts(all);
        assertEquals(1, both.get("active"));
        assertEquals(1, both.get("queued"));
        assertEquals(2, both.get("failed"));
        assertEquals(1, all.getInt("vos.find { it.vo == '" + voA + "' }.counts.queued"));
        assertEquals(1, all.getInt("vos.find { it.vo == '" + voB + "' }.counts.failed"));
        assertEquals(List.of(voB), overview(admin(), "?window=6h&vo=" + voB).getList("vos.vo"), "an administrator may narrow to one VO");
        // a VO's caller cannot widen its view by naming another VO
        assertEquals(List.of(voA), overview(submitter(voA), "?vo=" + voB).getList("vos.vo"));
    }

    @Test
    void errorsAreGroupedByLinkAndCodeWithTheLatestExamplesOfTheCallersVoOnly() {
        outcomes();
        String own = given().auth().oauth2(submitter(voA)).get("/monitor/api/errors?window=1h").then().statusCode(200).extract().asString();
        assertFalse(own.contains("voB's own reason"), own);
        JsonPath a = JsonPath.from(own);
        String group = "groups.find { it.source_se == '" + source + "' && it.dest_se == '" + dest + "' && it.error_code == '%s' }";
        assertEquals(1, a.getInt(String.format(group, "SRC_NOT_FOUND") + ".count"));
        assertEquals("no such file at the source", a.getString(String.format(group, "SRC_NOT_FOUND") + ".examples[0].reason"));
        assertEquals(voA, a.getString(String.format(group, "SRC_NOT_FOUND") + ".examples[0].vo"));
        assertEquals(1, a.getInt(String.format(group, "TIMEOUT") + ".count"), "retried attempts count too");
        assertEquals("the copy stalled", a.getString(String.format(group, "TIMEOUT") + ".examples[0].reason"));

        JsonPath all = given().auth().oauth2(admin()).get("/monitor/api/errors?window=1h").then().statusCode(200).extract().jsonPath();
        assertEquals(2, all.getInt(String.format(group, "SRC_NOT_FOUND") + ".count"));
        assertEquals(2, all.getList(String.format(group, "SRC_NOT_FOUND") + ".examples").size());
        JsonPath none = given().auth().oauth2(submitter("nobody" + voA)).get("/monitor/api/errors").then().statusCode(200).extract().jsonPath();
        assertNull(none.get(String.format(group, "SRC_NOT_FOUND")), "another VO sees none of them");
    }

    @Test
    void badWindowsAndCallersWithoutAVoAreRefused() {
        for (String window : List.of("1y", "0h", "31d", "h", "-1h", "99999h")) {
            given().auth().oauth2(admin()).get("/monitor/api/overview?window=" + window).then().statusCode(400).contentType(PROBLEM);
            given().auth().oauth2(admin()).get("/monitor/api/errors?window=" + window).then().statusCode(400).contentType(PROBLEM);
        }
        given().auth().oauth2(admin()).get("/monitor/api/errors?limit=0").then().statusCode(400).contentType(PROBLEM);
        given().get("/monitor/api/overview").then().statusCode(401);
        given().get("/monitor/api/errors").then().statusCode(401);
        given().auth().oauth2(FerryTestResource.token(null, "transfer:read")).get("/monitor/api/overview").then().statusCode(403).contentType(PROBLEM);
        given().auth().oauth2(FerryTestResource.token(voA, "profiles:write")).get("/monitor/api/overview").then().statusCode(403);
    }

    @Test
    void thePageAndItsSettingsAreServedUnderAPolicyWithoutInlineScript() {
        given().get("/monitor/api/config").then().statusCode(200).body("dashboard_url", equalTo("http://localhost:8084/dashboard/"));
        given().get("/monitor/").then().statusCode(200).body(containsString("monitor.js"))
                .header("Content-Security-Policy", containsString("script-src 'self'"))
                .header("Content-Security-Policy", not(containsString("unsafe-inline")))
                .header("X-Content-Type-Options", equalTo("nosniff"));
        given().get("/monitor/monitor.js").then().statusCode(200).header("X-Content-Type-Options", equalTo("nosniff"));
    }
}
