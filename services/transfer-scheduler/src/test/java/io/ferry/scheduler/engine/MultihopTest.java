package io.ferry.scheduler.engine;

import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** FTS3's multihop jobs end to end: hop by hop over three SEs, a failed hop ends the chain, a broken chain is refused. */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class MultihopTest extends EngineFixture {

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
}
