package io.ferry.scheduler.delivery;

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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** FTS3's completion messages wait for the STOMP broker and reach it, once it is up, as Rucio parses them. */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class MonitoringDeliveryTest extends EngineFixture {

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
        }
    }
}
