package io.ferry.scheduler.delivery;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.ferry.schema.TransferRecordSchema;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The records the scheduler queues for rate-aggregator, a finished attempt's and a failed one's, are what the shared
 * transfer-record schema says rate-aggregator takes (its own tests hold ingest to the same file).
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class TransferRecordContractTest extends EngineFixture {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void finishedAndFailedAttemptsAreRecordedAsTheSchemaSays() throws Exception {
        String adler = write("/se-a/contract/ok", 70_000, 11);
        String good = file("/se-a/contract/ok", "/se-b/contract/ok", adler);
        String missing = file("/se-a/contract/missing", "/se-b/contract/missing", null);
        String id = submit(vo("atlas"), List.of(good, missing), "{\"retry\":0,\"verify_checksum\":\"both\"}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHEDDIRTY");
        await().atMost(Duration.ofSeconds(10)).until(() -> count("SELECT count(*) FROM record_outbox WHERE payload LIKE '%" + id + "%'") == 2);

        List<JsonNode> records = new ArrayList<>();
        for (Row r : pool.preparedQuery("SELECT payload FROM record_outbox WHERE payload LIKE $1").execute(Tuple.of("%" + id + "%"))
                .await().atMost(Duration.ofSeconds(10))) {
            String payload = r.getString("payload");
            assertEquals(List.of(), TransferRecordSchema.problems(payload), payload);
            records.add(JSON.readTree(payload));
        }
        assertEquals(List.of("FAILED", "FINISHED"), records.stream().map(n -> n.path("outcome").asText()).sorted().toList());
        JsonNode failed = records.stream().filter(n -> n.path("outcome").asText().equals("FAILED")).findFirst().orElseThrow();
        assertTrue(failed.path("error_code").isTextual() && !failed.path("error_code").asText().isBlank(), failed.toString());
    }
}
