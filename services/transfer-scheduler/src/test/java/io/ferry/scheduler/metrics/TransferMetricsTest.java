package io.ferry.scheduler.metrics;

import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The transfer metrics end to end: queued files, then the job's outcomes, bytes and the link's target. */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class TransferMetricsTest extends EngineFixture {

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
}
