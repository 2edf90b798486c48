package io.ferry.rates;

import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

/** Ingest of transfer records: per-item answers, idempotency by id, scope checks. */
@QuarkusTest
@QuarkusTestResource(FerryTestResource.class)
class RecordIngestTest {

    static final String PROBLEM = "application/problem+json";

    static String record(String id, String start, String end, long bytes) {
        return "{\"id\":\"" + id + "\",\"job_id\":\"j1\",\"file_id\":1,\"attempt\":1,\"vo\":\"atlas\",\"activity\":\"Data Consolidation\","
                + "\"source_se\":\"RAL-ECHO\",\"dest_se\":\"CERN-EOS\",\"source_site\":\"RAL-LCG2\",\"dest_site\":\"CERN-PROD\","
                + "\"filesize\":" + bytes + ",\"bytes_transferred\":" + bytes + ",\"streams\":4,"
                + "\"submitted_at\":\"2026-11-01T10:00:00.000Z\",\"prepare_started_at\":\"2026-11-01T10:00:01.000Z\","
                + "\"prepare_ended_at\":\"2026-11-01T10:00:21.000Z\",\"transfer_started_at\":\"" + start + "\","
                + "\"transfer_ended_at\":\"" + end + "\",\"throughput_bytes_per_s\":1048576.0,\"outcome\":\"FINISHED\"}";
    }

    static String writer() {
        return FerryTestResource.token(null, "rates:write");
    }

    @Test
    void writesNeedTheRatesWriteScope() {
        String batch = "[" + record("auth-1", "2026-11-01T10:00:22.000Z", "2026-11-01T10:00:32.000Z", 10485760) + "]";
        given().contentType(ContentType.JSON).body(batch).post("/records").then().statusCode(401).contentType(PROBLEM);
        given().auth().oauth2(FerryTestResource.token("atlas", "transfer:submit")).contentType(ContentType.JSON).body(batch)
                .post("/records").then().statusCode(403).contentType(PROBLEM);
    }

    @Test
    void validItemsAreKeptOnceAndInvalidOnesAnsweredPerItem() {
        String good1 = record("rec-1", "2026-11-01T10:00:22.000Z", "2026-11-01T10:00:32.000Z", 10485760);
        String good2 = record("rec-2", "2026-11-01T10:01:22.000Z", "2026-11-01T10:01:42.000Z", 20971520);
        String backwards = record("rec-3", "2026-11-01T10:00:40.000Z", "2026-11-01T10:00:30.000Z", 1);
        String wrongUnits = good1.replace("\"rec-1\"", "\"rec-4\"").replace("\"bytes_transferred\":10485760", "\"bytes_transferred\":\"10MB\"");
        given().auth().oauth2(writer()).contentType(ContentType.JSON).body("[" + good1 + "," + backwards + "," + good2 + "," + wrongUnits + "]")
                .post("/records").then().statusCode(207)
                .body("received", equalTo(4)).body("accepted", equalTo(2)).body("duplicates", equalTo(0))
                .body("rejected.index", hasItem(1)).body("rejected.index", hasItem(3))
                .body("rejected.find { it.index == 1 }.errors.field", hasItem("transfer_ended_at"));
        // Re-delivery (an outbox retry after a lost answer) stores nothing twice.
        given().auth().oauth2(writer()).contentType("application/x-ndjson").body((good1 + "\n" + good2 + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .post("/records").then().statusCode(200)
                .body("accepted", equalTo(0)).body("duplicates", equalTo(2)).body("rejected", hasSize(0));
    }

    @Test
    void aBatchWithNothingValidIsA400AndStoresNothing() {
        String bad = record("bad-1", "2026-11-01T10:00:40.000Z", "2026-11-01T10:00:30.000Z", 1);
        given().auth().oauth2(writer()).contentType(ContentType.JSON).body("[" + bad + "]")
                .post("/records").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("[0].transfer_ended_at"));
        given().auth().oauth2(writer()).contentType(ContentType.JSON).body("[{\"id\": ")
                .post("/records").then().statusCode(400).contentType(PROBLEM).body("code", equalTo("MALFORMED_BODY"));
        String fixed = record("bad-1", "2026-11-01T10:00:20.000Z", "2026-11-01T10:00:30.000Z", 1);
        given().auth().oauth2(writer()).contentType(ContentType.JSON).body("[" + fixed + "]")
                .post("/records").then().statusCode(200).body("accepted", equalTo(1));
    }
}
