package io.ferry.scheduler.probes;

import io.ferry.dev.FerryTestResource;
import io.ferry.dev.FreePort;
import io.ferry.dev.NginxWebDav;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
import static org.hamcrest.Matchers.not;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Link probes end to end against a real nginx: a probe with a short interval creates its source, runs its copy as
 * an ordinary job of its VO under the probe activity, removes both files once the job is over, and keeps each
 * run in its series; a probe whose source cannot be created says why and tries again. Bad settings and callers
 * without administrator rights are refused, and nothing is stored.
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class ProbeTest {

    static NginxWebDav nginx;

    @BeforeAll
    static void startNginx() throws Exception {
        nginx = new NginxWebDav();
    }

    @AfterAll
    static void stopNginx() throws Exception {
        nginx.close();
    }

    static String admin() {
        return FerryTestResource.token(null, "transfer:admin");
    }

    static void register(String name, String baseUrl) {
        given().auth().oauth2(admin()).contentType(ContentType.JSON)
                .body("{\"site\":\"" + name + "-SITE\",\"baseUrls\":{\"http\":\"" + baseUrl + "\"},\"access\":{\"open\":true}}")
                .put("/endpoints/" + name).then().statusCode(anyOf(equalTo(200), equalTo(201)));
    }

    static int create(String body) {
        return given().auth().oauth2(admin()).contentType(ContentType.JSON).body(body).post("/probes")
                .then().statusCode(201).extract().path("probe_id");
    }

    static JsonPath runs(int probe) {
        return given().auth().oauth2(admin()).get("/probes/" + probe + "/runs?window=1h").then().statusCode(200).extract().jsonPath();
    }

    static List<Path> filesBelow(Path dir) throws Exception {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).toList();
        }
    }

    @Test
    void aProbeRunsEveryIntervalAsAnOrdinaryJobAndLeavesNoFileBehind() throws Exception {
        register("PRB-A", nginx.url("/prb-a"));
        register("PRB-B", nginx.url("/prb-b"));
        Files.createDirectories(nginx.file("/prb-a"));
        Files.createDirectories(nginx.file("/prb-b"));
        int probe = create("{\"source_se\":\"PRB-A\",\"dest_se\":\"PRB-B\",\"file_size\":300001,\"interval_seconds\":1}");
        try {
            given().auth().oauth2(FerryTestResource.token("atlas", "transfer:read")).get("/probes/" + probe).then().statusCode(200)
                    .body("vo", equalTo("ops")).body("enabled", equalTo(true)).body("file_size", equalTo(300001));
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(300))
                    .until(() -> runs(probe).getList("findAll { it.outcome == 'FINISHED' }").size() >= 2);
            JsonPath series = runs(probe);
            List<String> jobs = series.getList("findAll { it.outcome == 'FINISHED' }.job_id");
            for (String job : jobs) {
                JsonPath j = given().auth().oauth2(admin()).get("/jobs/" + job).then().statusCode(200).extract().jsonPath();
                assertEquals("FINISHED", j.getString("job_state"));
                assertEquals("ops", j.getString("vo_name"));
                JsonPath f = given().auth().oauth2(admin()).get("/jobs/" + job + "/files").then().statusCode(200).extract().jsonPath();
                assertEquals("ferry-probe", f.getString("[0].activity"));
                assertEquals(300001, f.getLong("[0].filesize"));
            }
            assertTrue(series.getDouble("find { it.outcome == 'FINISHED' }.throughput_bytes_per_s") > 0, series.prettify());
            assertEquals(300001, series.getLong("find { it.outcome == 'FINISHED' }.bytes_transferred"));
            assertNotNull(series.get("find { it.outcome == 'FINISHED' }.duration_seconds"));
            assertTrue(series.getDouble("findAll { it.outcome == 'FINISHED' }[-1].average_12h_bytes_per_s") > 0, series.prettify());
            // the probe activity weighs little in the probe's VO, so that production always comes first
            assertEquals(0.01, given().auth().oauth2(admin()).get("/shares/ops/activities").then().statusCode(200).extract()
                    .jsonPath().getDouble("'ferry-probe'"), 1e-9);
            given().auth().oauth2(admin()).get("/probes").then().statusCode(200)
                    .body("find { it.probe_id == " + probe + " }.finished_12h", Matchers.greaterThanOrEqualTo(2));
        } finally {
            given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"enabled\":false}").put("/probes/" + probe)
                    .then().statusCode(200).body("enabled", equalTo(false));
        }
        // the last run ends and is cleaned up too; then nothing of any run is left on either SE
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                .until(() -> runs(probe).getList("findAll { it.outcome == 'RUNNING' }").isEmpty()
                        && filesBelow(nginx.file("/prb-a")).isEmpty() && filesBelow(nginx.file("/prb-b")).isEmpty());
        int finished = runs(probe).getList("findAll { it.outcome == 'FINISHED' }").size();
        Thread.sleep(1500);
        assertEquals(finished, runs(probe).getList("findAll { it.outcome == 'FINISHED' }").size(), "a disabled probe runs no more");
        given().auth().oauth2(admin()).delete("/probes/" + probe).then().statusCode(204);
        given().auth().oauth2(admin()).get("/probes/" + probe).then().statusCode(404);
    }

    @Test
    void aProbeWhoseSourceCannotBeCreatedSaysWhyAndTriesAgain() {
        register("PRB-DEAD", "http://127.0.0.1:" + FreePort.find() + "/gone");
        register("PRB-B", nginx.url("/prb-b"));
        int probe = create("{\"source_se\":\"PRB-DEAD\",\"dest_se\":\"PRB-B\",\"file_size\":1000,\"interval_seconds\":1,\"vo\":\"dteam\"}");
        try {
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(300))
                    .until(() -> runs(probe).getList("findAll { it.outcome == 'NOT_STARTED' }").size() >= 2);
            JsonPath p = given().auth().oauth2(admin()).get("/probes/" + probe).then().statusCode(200).extract().jsonPath();
            assertEquals("NOT_STARTED", p.getString("last_run.outcome"));
            assertTrue(p.getString("last_run.error").contains("the probe's source could not be created"), p.prettify());
            assertEquals("CONNECTION_RESET", p.getString("last_run.error_code"));
            Assertions.assertNull(p.get("last_run.job_id"));
        } finally {
            given().auth().oauth2(admin()).delete("/probes/" + probe).then().statusCode(204);
        }
    }

    @Test
    void badSettingsAreRefusedWithEveryFieldAndNothingIsStored() {
        register("PRB-A", nginx.url("/prb-a"));
        register("PRB-B", nginx.url("/prb-b"));
        int before = given().auth().oauth2(admin()).get("/probes").then().statusCode(200).extract().jsonPath().getList("$").size();
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"dest_se\":\"PRB-B\",\"file_size\":0,\"interval_seconds\":0,\"vo\":\"a b\"}")
                .post("/probes").then().statusCode(400).contentType("application/problem+json")
                .body("errors.field", hasItems("source_se", "file_size", "interval_seconds", "vo"));
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"source_se\":\"PRB-A\",\"dest_se\":\"PRB-A\",\"file_size\":100000000,\"interval_seconds\":60}")
                .post("/probes").then().statusCode(400).contentType("application/problem+json").body("errors.field", hasItems("dest_se", "file_size"));
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"source_se\":\"PRB-A\",\"dest_se\":\"NOPE\",\"file_size\":1000,\"interval_seconds\":60}")
                .post("/probes").then().statusCode(422).contentType("application/problem+json").body("context.unknown", hasItem("NOPE"));
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"source_se\":\"PRB-A\",\"dest_se\":\"PRB-B\",\"file_size\":\"big\",\"interval_seconds\":60}")
                .post("/probes").then().statusCode(400).contentType("application/problem+json");
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("not json").post("/probes").then().statusCode(400)
                .contentType("application/problem+json");
        given().auth().oauth2(admin()).get("/probes/999999/runs").then().statusCode(404).contentType("application/problem+json");
        given().auth().oauth2(admin()).get("/probes/1/runs?window=forever").then().statusCode(400).contentType("application/problem+json");
        assertEquals(before, given().auth().oauth2(admin()).get("/probes").then().statusCode(200).extract().jsonPath().getList("$").size(),
                "nothing was stored");
    }

    @Test
    void onlyAdministratorsScheduleProbes() {
        register("PRB-A", nginx.url("/prb-a"));
        register("PRB-B", nginx.url("/prb-b"));
        String body = "{\"source_se\":\"PRB-A\",\"dest_se\":\"PRB-B\",\"file_size\":1000,\"interval_seconds\":3600,\"enabled\":false}";
        given().contentType(ContentType.JSON).body(body).post("/probes").then().statusCode(401);
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).contentType(ContentType.JSON).body(body).post("/probes")
                .then().statusCode(403).contentType("application/problem+json");
        int probe = create(body);
        try {
            given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).contentType(ContentType.JSON).body("{\"enabled\":true}")
                    .put("/probes/" + probe).then().statusCode(403);
            given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).delete("/probes/" + probe).then().statusCode(403);
            given().get("/probes").then().statusCode(401);
            given().auth().oauth2(admin()).get("/probes/" + probe).then().statusCode(200).body("enabled", equalTo(false))
                    .body("interval_seconds", equalTo(3600));
            given().auth().oauth2(admin()).get("/probes").then().body("probe_id", hasItem(probe)).body("probe_id", not(hasItem(-1)));
        } finally {
            given().auth().oauth2(admin()).delete("/probes/" + probe).then().statusCode(204);
        }
    }
}
