package io.ferry.rates;

import io.ferry.dev.DevTokens;
import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.lessThan;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

/** Ingest of transfer records: per-item answers, idempotency by id, scope checks. */
@QuarkusTest
@WithTestResource(FerryTestResource.class)
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
        String foreign = FerryTestResource.token(DevTokens.Claims.of("mallory", null, "rates:write")
                .withIssuer("https://elsewhere.example/issuer"));
        given().auth().oauth2(foreign).contentType(ContentType.JSON).body(batch).post("/records")
                .then().statusCode(401).contentType(PROBLEM).body("code", equalTo("TOKEN_UNKNOWN_ISSUER"));
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

    /** The sum of the series of {@code name} on /q/metrics whose line contains {@code label} (a {@code key="value"}). */
    static double metric(String name, String label) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> (l.startsWith(name + "{") || l.startsWith(name + " ")) && l.contains(label))
                .mapToDouble(l -> Double.parseDouble(l.replaceFirst("^[^ {]+(\\{.*?\\})? ", "").split(" ")[0])).sum();
    }

    /** The ingest lag histogram's bucket of bound {@code le} seconds. */
    static double lagBucket(double le) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith("ferry_records_ingest_lag_seconds_bucket{")).filter(l -> {
            String bound = l.replaceAll(".*le=\"([^\"]*)\".*", "$1");
            return !bound.equals("+Inf") && Double.parseDouble(bound) == le;
        }).mapToDouble(l -> Double.parseDouble(l.replaceFirst("^[^ {]+(\\{.*?\\})? ", "").split(" ")[0])).sum();
    }

    /** A batch whose oldest record ended half a minute ago: counted as accepted, its lag in the (15 s, 60 s] bucket. */
    @Test
    void ingestCountsRecordsAndPutsABatchsLagInItsBucket() {
        double accepted = metric("ferry_records_ingested_total", "result=\"accepted\"");
        double batches = metric("ferry_records_ingest_lag_seconds_count", "");
        double upTo15 = lagBucket(15);
        double upTo60 = lagBucket(60);
        java.time.Instant end = java.time.Instant.now().minusSeconds(30).truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
        String batch = "[" + record("lag-1", end.minusSeconds(10).toString(), end.toString(), 1000) + ","
                + record("lag-2", end.minusSeconds(5).toString(), end.plusSeconds(20).toString(), 1000) + "]";
        given().auth().oauth2(writer()).contentType(ContentType.JSON).body(batch).post("/records").then().statusCode(200).body("accepted", equalTo(2));
        org.junit.jupiter.api.Assertions.assertEquals(accepted + 2, metric("ferry_records_ingested_total", "result=\"accepted\""));
        org.junit.jupiter.api.Assertions.assertEquals(batches + 1, metric("ferry_records_ingest_lag_seconds_count", ""));
        org.junit.jupiter.api.Assertions.assertEquals(upTo15, lagBucket(15), "the oldest record's lag, 30 s, is above 15 s");
        org.junit.jupiter.api.Assertions.assertEquals(upTo60 + 1, lagBucket(60));
    }

    /** One record with {@code field} set to {@code json} (a JSON value), otherwise valid. */
    static String with(String id, String field, String json) {
        String r = record(id, "2026-11-01T10:00:22.000Z", "2026-11-01T10:00:32.000Z", 10485760);
        if (!r.contains("\"" + field + "\":")) {
            return r.substring(0, r.length() - 1) + ",\"" + field + "\":" + json + "}";
        }
        return r.replaceFirst("\"" + field + "\":(\"[^\"]*\"|[^,}]*)", java.util.regex.Matcher.quoteReplacement("\"" + field + "\":" + json));
    }

    static void refused(String body, String contentType, String field) {
        given().auth().oauth2(writer()).contentType(contentType).body(body).post("/records").then()
                .statusCode(400).contentType(PROBLEM).body("errors.field", hasItem(field));
    }

    @Test
    void hostileNamesNulBytesAndOddBodiesAreRefusedPerFieldAndNothingIsStored() {
        // Names end up in the dashboard, SQL parameters and rollup keys: a plain character set only.
        refused("[" + with("evil-1", "source_site", "\"<img src=x onerror=alert(1)>\"") + "]", "application/json", "[0].source_site");
        refused("[" + with("evil-2", "dest_se", "\"CERN EOS\\\"\"") + "]", "application/json", "[0].dest_se");
        refused("[" + with("evil-3", "source_se", "\"" + "A".repeat(101) + "\"") + "]", "application/json", "[0].source_se");
        // PostgreSQL cannot store NUL in text: it is refused per field, not a 500 for the batch.
        refused("[" + with("evil-4", "error_message", "\"broken\\u0000pipe\"") + "]", "application/json", "[0].error_message");
        refused("[" + with("evil-5", "vo", "\"atlas\\u0000\"") + "]", "application/json", "[0].vo");
        refused("[" + with("evil-6", "id", "\"id\\u0000x\"") + "]", "application/json", "[0].id");
        // Numbers past what a transfer can be, and times PostgreSQL cannot hold.
        refused("[" + with("evil-7", "filesize", "9223372036854775807").replace("\"bytes_transferred\":10485760", "\"bytes_transferred\":9223372036854775807") + "]",
                "application/json", "[0].filesize");
        refused("[" + with("evil-8", "filesize", "1e30") + "]", "application/json", "[0].filesize");
        refused("[" + with("evil-9", "submitted_at", "\"-5000-01-01T00:00:00Z\"") + "]", "application/json", "[0].submitted_at");
        refused("[" + with("evil-10", "attempt", "\"first\"") + "]", "application/json", "[0].attempt");
        // Bodies that are JSON but not records.
        for (String body : new String[]{"null", " null ", "42", "\"records\"", "true", "{}", "[null]", "[[]]"}) {
            given().auth().oauth2(writer()).contentType(ContentType.JSON).body(body).post("/records").then()
                    .statusCode(400).contentType(PROBLEM);
            given().auth().oauth2(writer()).contentType("application/x-ndjson").body(body.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    .post("/records").then()
                    .statusCode(400).contentType(PROBLEM);
        }
        given().auth().oauth2(writer()).contentType(ContentType.JSON).body("[" + with("evil-ok", "source_site", "\"BNL-OSG2_DATADISK\"") + ","
                        + with("evil-11", "dest_site", "\"<b>\"") + "]").post("/records").then()
                .statusCode(207).body("accepted", equalTo(1)).body("rejected[0].errors.field", hasItem("dest_site"));
        given().get("/links?window=1y").then().statusCode(lessThan(500));
    }

    @Test
    void nulBytesAndHugeNumbersInQueriesAreA400() {
        String at = "2026-11-01T10:00:00Z";
        for (String path : new String[]{"/measurements?source=%00", "/measurements?destination=a%00b", "/measurements/latest?host=%00",
                "/compare?se=%00&at=" + at, "/compare?site=X%00&at=" + at, "/compare?source=A%00&destination=B&at=" + at,
                "/regression?source=%00&destination=B&from=2026-11-01T00:00:00Z&to=" + at,
                "/rates?source=%00&destination=B", "/links?window=99999999999999999999d", "/links?window=9999999999999999y",
                "/rates?window=7d&bin=99999999999999999999h",
                "/sites?window=%00"}) {
            // Sent as written: RestAssured would otherwise encode the '%' of %00 itself.
            io.restassured.response.Response r = given().urlEncodingEnabled(false).get(path);
            org.junit.jupiter.api.Assertions.assertEquals(400, r.statusCode(), path + " answered " + r.asString());
            r.then().contentType(PROBLEM).body("errors.field", everyItem(org.hamcrest.Matchers.notNullValue()))
                    .body("errors.size()", greaterThanOrEqualTo(1));
        }
        given().urlEncodingEnabled(false).auth().oauth2(writer()).delete("/groups/%00").then().statusCode(400).contentType(PROBLEM);
        given().auth().oauth2(writer()).contentType(ContentType.JSON).body("null").put("/groups/G1").then().statusCode(400).contentType(PROBLEM);
        // A wrong JSON type in a typed body: 400 (its media type is the shared mappers' business, services/lib/problem-json).
        given().auth().oauth2(writer()).contentType(ContentType.JSON).body("{\"sites\":\"RAL\"}").put("/groups/G1").then()
                .statusCode(400);
        given().auth().oauth2(writer()).contentType(ContentType.JSON).body("null").post("/measurements").then().statusCode(400).contentType(PROBLEM);
        given().auth().oauth2(writer()).contentType(ContentType.JSON)
                .body("[{\"source\":\"ps\\u0000.ral\",\"destination\":\"b\",\"tool\":\"iperf3\",\"time\":\"" + at + "\",\"rtt_ms\":1}]")
                .post("/measurements").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("[0].source"));
        given().auth().oauth2(writer()).contentType("text/csv").body("timestamp,source_site,source_se,destination_site,destination_se,bytes,"
                        + "transfer_seconds,prepare_seconds,success\n" + at + ",R\u0000AL,A,B,C,1000,1,1,true\n")
                .post("/records/csv?vo=cms").then().statusCode(400).contentType(PROBLEM);
    }
}
