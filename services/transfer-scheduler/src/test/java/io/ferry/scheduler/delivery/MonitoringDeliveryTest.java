package io.ferry.scheduler.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.ferry.scheduler.delivery.RucioReceiver;
import io.ferry.scheduler.delivery.StompBroker;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FTS3's completion messages wait for the STOMP broker and reach it, once it is up, as Rucio parses them; its state
 * and start messages go the same way to their own destinations. The backlog gauge shows them waiting, and 0 once taken.
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class MonitoringDeliveryTest extends EngineFixture {

    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void fts3CompletionMessagesWaitForTheBrokerAndReachItOnceItIsUpAsRucioParsesThem() throws Exception {
        String metadata = "{\"request_id\":\"%s\",\"scope\":\"user.alice\",\"name\":\"%s\",\"src_rse\":\"NGX-A\",\"dst_rse\":\"NGX-B\"}";
        String adler = write("/se-a/monitored/ok", 50_000, 5);
        // Rucio's label for its experiment 2, activity 9: sent to both SEs and echoed in the file's completion message
        String good = file("/se-a/monitored/ok", "/se-b/monitored/ok", adler).replaceFirst("}$", ",\"metadata\":" + metadata.formatted("req-ok", "ok")
                + ",\"scitag\":137}");
        String bad = file("/se-a/monitored/missing", "/se-b/monitored/missing", null)
                .replaceFirst("}$", ",\"metadata\":" + metadata.formatted("req-missing", "missing") + "}");
        // no broker yet: the messages of both files wait in the outbox
        String id = submit(vo("atlas"), List.of(good, bad), "{\"retry\":0,\"job_metadata\":{\"issuer\":\"rucio\",\"multi_sources\":false}}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHEDDIRTY", "FINISHED", "FAILED");
        JsonPath shown = files(vo("atlas"), id);
        assertEquals(137, shown.getInt("find { it.dest_surl.endsWith('/ok') }.scitag"), shown.prettify());
        assertNull(shown.get("find { it.dest_surl.endsWith('/missing') }.scitag"), shown.prettify());
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertEquals(List.of("GET /se-a/monitored/ok scitag=137",
                "PUT /se-b/monitored/ok scitag=137"), nginx.requests().stream().filter(l -> l.contains("/monitored/ok ") && l.matches("(GET|PUT) .*"))
                .toList(), "the label reached the source and the destination SE"));
        await().atMost(Duration.ofSeconds(10)).until(() -> count("SELECT count(*) FROM monitoring_outbox WHERE kind = 'complete' AND payload LIKE '%" + id + "%'") == 2);
        Thread.sleep(1000); // tries against the absent broker: they must keep the messages
        assertEquals(2, count("SELECT count(*) FROM monitoring_outbox WHERE kind = 'complete' AND payload LIKE '%" + id + "%'"));
        // the backlog gauge shows every waiting message (earlier tests' too), counted once per pause while the broker is away
        await().atMost(Duration.ofSeconds(5)).until(() -> pendingMessages() == count("SELECT count(*) FROM monitoring_outbox"));
        assertTrue(pendingMessages() >= 2, "both files' messages wait: " + pendingMessages());

        try (StompBroker broker = new StompBroker(WithEngine.STOMP_PORT,
                "transfer.fts_monitoring_complete", "transfer.fts_monitoring_state", "transfer.fts_monitoring_start")) {
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
            String okBody = broker.bodies.stream().filter(b -> b.contains(id) && b.contains("req-ok")).findFirst().orElseThrow();
            String missingBody = broker.bodies.stream().filter(b -> b.contains(id) && b.contains("req-missing")).findFirst().orElseThrow();
            assertTrue(okBody.contains("\"scitag\":137"), okBody);
            assertTrue(missingBody.contains("\"scitag\":0"), "FTS3's 0 for a file without a label: " + missingBody);
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

            // FTS3's state messages: each change of each file's state, in order, with FTS3's fields and types
            await().atMost(Duration.ofSeconds(10)).until(() -> count("SELECT count(*) FROM monitoring_outbox WHERE payload LIKE '%" + id + "%'") == 0);
            List<JsonNode> states = new ArrayList<>();
            for (String body : broker.byTopic.get("transfer.fts_monitoring_state")) {
                JsonNode m = JSON.readTree(body);
                if (m.path("job_id").asText().equals(id) && m.path("dst_url").asText().endsWith("/ok")) {
                    states.add(m);
                }
            }
            assertEquals(List.of("READY", "ACTIVE", "FINISHED"), states.stream().map(m -> m.path("file_state").asText()).toList(),
                    "the good file's changes after SUBMITTED: " + states);
            JsonNode finished = states.get(2);
            assertEquals("atlas", finished.path("vo_name").asText());
            assertEquals("req-ok", finished.path("file_metadata").path("request_id").asText(), finished.toString());
            assertEquals("rucio", finished.path("job_metadata").path("issuer").asText(), finished.toString());
            assertTrue(finished.path("user_filesize").isIntegralNumber() && finished.path("user_filesize").asLong() == 0,
                    "FTS3's user_filesize is the size submitted, none here: " + finished);
            assertTrue(finished.path("timestamp").isIntegralNumber() && finished.path("submit_time").asLong() > 0
                    && finished.path("timestamp").asLong() >= states.get(0).path("timestamp").asLong(), finished.toString());
            assertEquals(0, finished.path("retry_max").asInt());
            // and one start message for each copy that started, on its own destination
            List<JsonNode> starts = new ArrayList<>();
            for (String body : broker.byTopic.get("transfer.fts_monitoring_start")) {
                JsonNode m = JSON.readTree(body);
                if (m.path("job_id").asText().equals(id)) {
                    starts.add(m);
                }
            }
            assertEquals(1, starts.size(), "the good file's copy started; the missing one failed in its prepare step: " + starts);
            JsonNode start = starts.get(0);
            assertTrue(start.path("dst_url").asText().endsWith("/ok"), start.toString());
            assertEquals("NGX-A-SITE", start.path("src_site_name").asText(), "the SE's site");
            assertEquals("https://ferry.test:8446", start.path("endpnt").asText());
            assertTrue(start.path("transfer_id").asText().endsWith("__" + id), start.toString());
            assertTrue(start.path("t_channel").asText().contains("__"), start.toString());
            assertEquals("req-ok", start.path("file_metadata").path("request_id").asText(), start.toString());
            // the broker took every message: the gauge is 0 from the first pass that finds none left
            await().atMost(Duration.ofSeconds(5)).until(() -> pendingMessages() == 0);
        }
    }

    private static double pendingMessages() {
        return metric("ferry_monitoring_pending_messages");
    }
}
