package io.ferry.scheduler;

import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

/** FTS3-compatible submission and bookkeeping: validation, registered endpoints only, VO isolation, cancel. */
@QuarkusTest
@QuarkusTestResource(FerryTestResource.class)
class JobApiTest {

    static final String PROBLEM = "application/problem+json";

    static String atlas() {
        return FerryTestResource.token("atlas", "transfer:submit");
    }

    static String cms() {
        return FerryTestResource.token("cms", "transfer:submit");
    }

    static String job(String src, String dst, String params) {
        return "{\"files\":[{\"sources\":[\"" + src + "\"],\"destinations\":[\"" + dst + "\"],\"filesize\":1048576,"
                + "\"checksum\":\"ADLER32:1a2b3c4d\",\"metadata\":{\"lfn\":\"/atlas/f1\"},\"activity\":\"Production\"}],\"params\":" + params + "}";
    }

    @BeforeEach
    void endpoints() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"site\":\"RAL-LCG2\",\"baseUrls\":{\"https\":\"https://ral.example/data\"}}")
                .put("/config/se/RAL-DISK").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"site\":\"CERN-PROD\",\"baseUrls\":{\"https\":\"https://cern.example/eos\"}}")
                .put("/config/se/CERN-DISK").then().statusCode(anyOf(equalTo(200), equalTo(201)));
    }

    @Test
    void fts3SubmissionsAreAcceptedWithUnknownParamsAndReadBackWithFts3Names() {
        String params = "{\"verify_checksum\":\"source\",\"overwrite\":null,\"reuse\":false,\"s3alternate\":null,\"buffer_size\":0,"
                + "\"priority\":4,\"retry\":2,\"max_time_in_queue\":\"12h\",\"job_metadata\":{\"campaign\":\"mc23\"}}";
        String id = given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/mc23/f1", "https://cern.example/eos/mc23/f1", params))
                .post("/jobs").then().statusCode(200).extract().path("job_id");
        given().auth().oauth2(atlas()).get("/jobs/" + id).then().statusCode(200)
                .body("job_state", equalTo("SUBMITTED")).body("vo_name", equalTo("atlas")).body("verify_checksum", equalTo("source"))
                .body("priority", equalTo(4)).body("retry", equalTo(2)).body("max_time_in_queue", equalTo(43200))
                .body("source_se", equalTo("RAL-DISK")).body("dest_se", equalTo("CERN-DISK")).body("job_metadata.campaign", equalTo("mc23"));
        given().auth().oauth2(atlas()).get("/jobs/" + id + "/files").then().statusCode(200)
                .body("[0].file_state", equalTo("SUBMITTED")).body("[0].checksum", equalTo("ADLER32:1a2b3c4d"))
                .body("[0].activity", equalTo("Production")).body("[0].file_metadata.lfn", equalTo("/atlas/f1"));
        given().auth().oauth2(atlas()).get("/jobs?state_in=SUBMITTED").then().statusCode(200).body("job_id", hasItem(id));
        given().auth().oauth2(atlas()).get("/jobs/" + id + "," + UUID.randomUUID()).then().statusCode(207)
                .body("[1].http_status", equalTo("404 Not Found"));
    }

    @Test
    void aLogicalSourceNeedsTheResolverAndWithoutItNothingIsStored() {
        // handle-resolver is unreachable in this profile: the job cannot be accepted, and nothing is kept
        String sid = "logical-" + UUID.randomUUID();
        given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("handle:20.500.1/abc", "https://cern.example/eos/logical/f1", "{\"id_generator\":\"deterministic\",\"sid\":\"" + sid + "\"}"))
                .post("/jobs").then().statusCode(503).contentType(PROBLEM).body("code", equalTo("RESOLVER_UNAVAILABLE"));
        UUID wouldBe = UUID.nameUUIDFromBytes(("ferry-job:atlas:" + sid).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        given().auth().oauth2(atlas()).get("/jobs/" + wouldBe).then().statusCode(404);
    }

    @Test
    void aVoSeesAndCancelsOnlyItsOwnJobs() {
        String id = given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/f2", "https://cern.example/eos/f2", "{}")).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        given().auth().oauth2(cms()).get("/jobs/" + id).then().statusCode(404).contentType(PROBLEM);
        given().auth().oauth2(cms()).delete("/jobs/" + id).then().statusCode(404);
        given().auth().oauth2(cms()).get("/jobs").then().statusCode(200).body("job_id", not(hasItem(id)));
        given().auth().oauth2(FerryTestResource.token(null, "transfer:admin")).get("/jobs/" + id).then().statusCode(200);
        given().auth().oauth2(atlas()).delete("/jobs/" + id).then().statusCode(200).body("job_state", equalTo("CANCELED"));
        given().auth().oauth2(atlas()).get("/jobs/" + id + "/files").then().body("[0].file_state", equalTo("CANCELED"))
                .body("[0].error_code", equalTo("CANCELED"));
        given().auth().oauth2(atlas()).delete("/jobs/" + id).then().statusCode(200).body("job_state", equalTo("CANCELED"));
        given().auth().oauth2(FerryTestResource.token(null, "transfer:submit")).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/f3", "https://cern.example/eos/f3", "{}")).post("/jobs").then().statusCode(403);
    }

    @Test
    void urlsOutsideRegisteredEndpointsAndBadValuesAreRefusedAndStoreNothing() {
        int before = given().auth().oauth2(atlas()).get("/jobs?limit=10000").then().extract().path("size()");
        given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://elsewhere.example/data/f1", "https://cern.example/eos/f1", "{}")).post("/jobs")
                .then().statusCode(422).contentType(PROBLEM).body("code", equalTo("UNREGISTERED_ENDPOINT"))
                .body("errors.field", hasItem("files[0].sources"));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/../../etc/passwd", "https://cern.example/eos/f1", "{}")).post("/jobs")
                .then().statusCode(422);
        given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/f1", "https://cern.example/eos/f1", "{\"priority\":9,\"verify_checksum\":\"maybe\",\"retry\":\"many\"}"))
                .post("/jobs").then().statusCode(400).contentType(PROBLEM)
                .body("errors.field", hasItem("params.priority")).body("errors.field", hasItem("params.verify_checksum"))
                .body("errors.field", hasItem("params.retry"));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/f1", "https://cern.example/eos/f1", "{}").replace("ADLER32:1a2b3c4d", "MD5:abc"))
                .post("/jobs").then().statusCode(400).body("errors.field", hasItem("files[0].checksum"));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body("{\"files\":[]}").post("/jobs").then().statusCode(400);
        given().auth().oauth2(atlas()).get("/jobs?limit=10000").then().body("size()", equalTo(before));
    }

    @Test
    void deterministicIdsMakeResubmissionA409() {
        String params = "{\"id_generator\":\"deterministic\",\"sid\":\"" + UUID.randomUUID() + "\"}";
        String body = job("https://ral.example/data/d1", "https://cern.example/eos/d1", params);
        String id = given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(body).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(body).post("/jobs").then().statusCode(409)
                .body("code", equalTo("JOB_EXISTS")).body("detail", org.hamcrest.Matchers.containsString(id));
    }

    @io.quarkus.test.common.http.TestHTTPResource("/")
    java.net.URL base;

    @Test
    void eventsStreamEachFilesStateAndItsChanges() throws Exception {
        String id = given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/e1", "https://cern.example/eos/e1", "{}")).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        java.util.concurrent.BlockingQueue<String> lines = new java.util.concurrent.LinkedBlockingQueue<>();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.io.InputStream stream = http.send(java.net.http.HttpRequest.newBuilder(base.toURI().resolve("jobs/" + id + "/events"))
                        .header("Authorization", "Bearer " + atlas()).header("Accept", "text/event-stream").build(),
                java.net.http.HttpResponse.BodyHandlers.ofInputStream()).body();
        Thread reader = new Thread(() -> new java.io.BufferedReader(new java.io.InputStreamReader(stream, java.nio.charset.StandardCharsets.UTF_8))
                .lines().forEach(lines::add));
        reader.setDaemon(true);
        reader.start();
        String first = poll(lines, "SUBMITTED");
        org.junit.jupiter.api.Assertions.assertTrue(first.contains(id), first);
        given().auth().oauth2(atlas()).delete("/jobs/" + id).then().statusCode(200);
        String change = poll(lines, "CANCELED");
        org.junit.jupiter.api.Assertions.assertTrue(change.contains("\"job_state\":\"CANCELED\""), change);
        // another VO hears nothing, exactly as for a job that does not exist
        given().auth().oauth2(cms()).get("/jobs/" + id + "/events").then().statusCode(200)
                .body(org.hamcrest.Matchers.not(org.hamcrest.Matchers.containsString("data:")));
        // closing the body hangs up: the server frees the stream (EventStreamsTest counts on it)
        stream.close();
    }

    static String poll(java.util.concurrent.BlockingQueue<String> lines, String wanted) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < deadline) {
            String line = lines.poll(500, java.util.concurrent.TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith("data:") && line.contains(wanted)) {
                return line;
            }
        }
        throw new AssertionError("no event with " + wanted + " within 15 s");
    }
}
