package io.ferry.scheduler.jobs;

import io.ferry.dev.FerryTestResource;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

/** FTS3-compatible submission and bookkeeping: validation, registered endpoints only, VO isolation, cancel. */
@QuarkusTest
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
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
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"site\":\"RAL-LCG2\",\"baseUrls\":{\"https\":\"https://ral.example/data\"},\"access\":{\"open\":true}}")
                .put("/endpoints/RAL-DISK").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"site\":\"CERN-PROD\",\"baseUrls\":{\"https\":\"https://cern.example/eos\"},\"access\":{\"open\":true}}")
                .put("/endpoints/CERN-DISK").then().statusCode(anyOf(equalTo(200), equalTo(201)));
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

    /** What Rucio's conveyor polls (bulk_query) and parses: http_status per job, objects for metadata, FTS3 times. */
    @Test
    void rucioBulkStatusPriorityUpdateAndCancelOfSeveralJobs() {
        String a = given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/bulk/a", "https://cern.example/eos/bulk/a", "{\"job_metadata\":{\"issuer\":\"rucio\",\"multi_sources\":false}}"))
                .post("/jobs").then().statusCode(200).extract().path("job_id");
        String b = given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/bulk/b", "https://cern.example/eos/bulk/b", "{\"priority\":2}"))
                .post("/jobs").then().statusCode(200).extract().path("job_id");
        String lost = UUID.randomUUID().toString();
        String fields = "file_state,dest_surl,finish_time,start_time,staging_start,staging_finished,reason,source_surl,file_metadata";
        JsonPath bulk = given().auth().oauth2(atlas()).get("/jobs/" + a + "," + b + "," + lost + "?files=" + fields)
                .then().statusCode(207).extract().jsonPath();
        Assertions.assertEquals("200 Ok", bulk.getString("[0].http_status"));
        Assertions.assertEquals("rucio", bulk.getString("[0].job_metadata.issuer"));
        Assertions.assertEquals(false, bulk.getBoolean("[0].job_metadata.multi_sources"));
        Assertions.assertEquals("/atlas/f1", bulk.getString("[0].files[0].file_metadata.lfn"));
        Assertions.assertEquals(Set.of(fields.split(",")), bulk.getMap("[0].files[0]").keySet());
        Assertions.assertTrue(bulk.getString("[0].submit_time").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d"),
                bulk.getString("[0].submit_time"));
        Assertions.assertEquals("404 Not Found", bulk.getString("[2].http_status"));
        Assertions.assertTrue(bulk.getString("[2].http_message").contains(lost));
        // one id: the entry alone; a lost job is 404 with FTS3's fields (Rucio reads http_status) and a problem's
        given().auth().oauth2(atlas()).get("/jobs/" + a + "?files=" + fields).then().statusCode(200)
                .body("http_status", equalTo("200 Ok")).body("files[0].staging_start", Matchers.nullValue());
        given().auth().oauth2(atlas()).get("/jobs/" + lost + "?files=" + fields).then().statusCode(404).contentType(PROBLEM)
                .body("http_status", equalTo("404 Not Found")).body("job_id", equalTo(lost)).body("code", equalTo("NOT_FOUND"));

        // update_priority: the job's and its unfinished files' priority, which the queues order by; as FTS3, the entry
        // carries http_message (null), which Rucio's server reads after every priority update
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body("{\"params\":{\"priority\":5}}").post("/jobs/" + b)
                .then().statusCode(200).body("http_status", equalTo("200 Ok")).body("priority", equalTo(5))
                .body("containsKey('http_message')", equalTo(true)).body("http_message", Matchers.nullValue());
        given().auth().oauth2(atlas()).get("/jobs/" + b).then().body("priority", equalTo(5));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body("{\"params\":{\"priority\":9}}").post("/jobs/" + b)
                .then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("params.priority"));
        // 4.0 is the number 4 (JSON Schema's integer takes it); 4.5 is no priority
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body("{\"params\":{\"priority\":4.0}}").post("/jobs/" + b)
                .then().statusCode(200).body("priority", equalTo(4));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body("{\"params\":{\"priority\":4.5}}").post("/jobs/" + b)
                .then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("params.priority"));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body("{\"params\":{\"priority\":5}}").post("/jobs/" + b)
                .then().statusCode(200).body("priority", equalTo(5));
        given().auth().oauth2(cms()).contentType(ContentType.JSON).body("{\"params\":{\"priority\":1}}").post("/jobs/" + b)
                .then().statusCode(404);
        given().auth().oauth2(atlas()).get("/jobs/" + b).then().body("priority", equalTo(5));

        // DELETE /jobs/a,b: each job's entry; then again: both were over already
        JsonPath canceled = given().auth().oauth2(atlas()).delete("/jobs/" + a + "," + b).then().statusCode(200)
                .extract().jsonPath();
        Assertions.assertEquals(List.of("CANCELED", "CANCELED"), canceled.getList("job_state"));
        Assertions.assertEquals(List.of("200 Ok", "200 Ok"), canceled.getList("http_status"));
        given().auth().oauth2(atlas()).delete("/jobs/" + a + "," + b + "," + lost).then().statusCode(207)
                .body("http_status", equalTo(List.of("304 Not Modified", "304 Not Modified", "404 Not Found")));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body("{\"params\":{\"priority\":1}}").post("/jobs/" + a)
                .then().statusCode(200).body("http_status", equalTo("304 Not Modified")).body("priority", equalTo(3));
    }

    /** A 10,000-file job is above the 1 MB limit of other bodies: POST /jobs alone may be that large. */
    @Test
    void tenThousandFilesAreOneJobWhileOtherBodiesKeepTheirLimit() {
        StringBuilder files = new StringBuilder();
        for (int i = 0; i < 10_000; i++) {
            files.append(i == 0 ? "" : ",").append("{\"sources\":[\"https://ral.example/data/big/f").append(i)
                    .append("\"],\"destinations\":[\"https://cern.example/eos/big/f").append(i)
                    .append("\"],\"filesize\":1048576,\"checksum\":\"ADLER32:1a2b3c4d\",\"metadata\":{\"request_id\":\"").append(UUID.randomUUID())
                    .append("\",\"scope\":\"mc23\"},\"activity\":\"Production\"}");
        }
        String body = "{\"files\":[" + files + "],\"params\":{\"priority\":1}}";
        Assertions.assertTrue(body.length() > 1 << 20, "the job is larger than other bodies may be");
        long start = System.nanoTime();
        String id = given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(body).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        System.out.printf("JobApiTest: a 10000-file job of %d bytes was accepted in %.3f s%n", body.length(), (System.nanoTime() - start) / 1e9);
        given().auth().oauth2(atlas()).get("/jobs/" + id + "/files").then().body("size()", equalTo(10_000));
        given().auth().oauth2(atlas()).delete("/jobs/" + id).then().statusCode(200);
        String admin = FerryTestResource.token(null, "transfer:admin");
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"site\":\"" + "x".repeat(1_100_000) + "\"}")
                .put("/endpoints/TOO-LARGE").then().statusCode(413).contentType(PROBLEM).body("code", equalTo("BODY_TOO_LARGE"));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(body).post("/jobs/" + id).then().statusCode(413)
                .contentType(PROBLEM);
    }

    /** GET /jobs as FTS3 lists: unfinished only by default, time_window for finished ones, fields, user_dn, scheme://host. */
    @Test
    void jobListingsFollowFts3sFilters() {
        String open = given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/list/o", "https://cern.example/eos/list/o", "{}")).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        String done = given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/list/d", "https://cern.example/eos/list/d", "{}")).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        given().auth().oauth2(atlas()).delete("/jobs/" + done).then().statusCode(200);
        given().auth().oauth2(atlas()).get("/jobs?limit=10000").then().statusCode(200).body("job_id", hasItem(open)).body("job_id", not(hasItem(done)));
        given().auth().oauth2(atlas()).get("/jobs?state_in=CANCELED&limit=10000").then().body("job_id", hasItem(done));
        given().auth().oauth2(atlas()).get("/jobs?state_in=CANCELED&time_window=1&limit=10000").then().body("job_id", hasItem(done));
        given().auth().oauth2(atlas()).get("/jobs?state_in=CANCELED&time_window=0:0&limit=10000").then().body("job_id", not(hasItem(done)));
        given().auth().oauth2(atlas()).get("/jobs?time_window=soon").then().statusCode(400).contentType(PROBLEM);
        given().auth().oauth2(atlas()).get("/jobs?fields=job_id,job_state&limit=10000").then()
                .body("find { it.job_id == '" + open + "' }.keySet()", equalTo(Set.of("job_id", "job_state")));
        String dn = given().auth().oauth2(atlas()).get("/jobs/" + open).then().extract().path("user_dn");
        given().auth().oauth2(atlas()).queryParam("user_dn", dn).get("/jobs?limit=10000").then().body("job_id", hasItem(open));
        given().auth().oauth2(atlas()).queryParam("user_dn", "/DC=org/CN=someone else").get("/jobs?limit=10000").then().body("job_id", not(hasItem(open)));
        for (String q : new String[]{"source_se=https://ral.example", "source_se=https://ral.example:443", "source_se=RAL-DISK",
                "dest_se=https://cern.example"}) {
            given().auth().oauth2(atlas()).get("/jobs?limit=10000&" + q).then().statusCode(200).body("job_id", hasItem(open));
        }
        given().auth().oauth2(atlas()).get("/jobs?limit=10000&source_se=https://cern.example").then().body("job_id", not(hasItem(open)));
        given().auth().oauth2(atlas()).get("/jobs?limit=10000&source_se=davs://ral.example").then().body("job_id", not(hasItem(open)));
    }

    @Test
    void aLogicalSourceNeedsTheResolverAndWithoutItNothingIsStored() {
        // handle-resolver is unreachable in this profile: the job cannot be accepted, and nothing is kept
        String sid = "logical-" + UUID.randomUUID();
        given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("handle:20.500.1/abc", "https://cern.example/eos/logical/f1", "{\"id_generator\":\"deterministic\",\"sid\":\"" + sid + "\"}"))
                .post("/jobs").then().statusCode(503).contentType(PROBLEM).body("code", equalTo("RESOLVER_UNAVAILABLE"));
        UUID wouldBe = UUID.nameUUIDFromBytes(("ferry-job:atlas:" + sid).getBytes(StandardCharsets.UTF_8));
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
    void theFts3ClientReadsDataManagementCancelledFileStatesAndHostActivity() {
        String twoFiles = "{\"files\":[{\"sources\":[\"https://ral.example/data/c1\"],\"destinations\":[\"https://cern.example/eos/c1\"]},"
                + "{\"sources\":[\"https://ral.example/data/c2\"],\"destinations\":[\"https://cern.example/eos/c2\"]}]}";
        String id = given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(twoFiles).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        // fts-rest-transfer-status -j reads /dm beside /files: a copy job has no data-management operations
        given().auth().oauth2(atlas()).get("/jobs/" + id + "/dm").then().statusCode(200).body("size()", equalTo(0));
        given().auth().oauth2(cms()).get("/jobs/" + id + "/dm").then().statusCode(404).contentType(PROBLEM);
        List<Integer> files = given().auth().oauth2(atlas()).get("/jobs/" + id + "/files").then().statusCode(200)
                .extract().path("file_id");
        // fts-rest-transfer-cancel JOB:F prints the state it gets; JOB:F1,F2 joins the states it gets
        String one = given().auth().oauth2(atlas()).delete("/jobs/" + id + "/files/" + files.get(0)).then().statusCode(200)
                .extract().asString();
        Assertions.assertEquals("\"CANCELED\"", one);
        given().auth().oauth2(atlas()).delete("/jobs/" + id + "/files/" + files.get(1) + "," + files.get(0)).then().statusCode(200)
                .body("", equalTo(List.of("CANCELED", "CANCELED")));
        // easy.get_jobs_statuses(list_files=True): each job with its files, only the fields asked for
        String other = given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(twoFiles).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        given().auth().oauth2(atlas()).get("/jobs/" + id + "," + other + "?files=file_state,dest_surl,file_metadata").then().statusCode(200)
                .body("[0].job_id", equalTo(id)).body("[0].files.file_state", equalTo(List.of("CANCELED", "CANCELED")))
                .body("[0].files[1].dest_surl", equalTo("https://cern.example/eos/c2")).body("[0].files[0].size()", equalTo(3))
                .body("[1].files.file_state", equalTo(List.of("SUBMITTED", "SUBMITTED")));
        given().auth().oauth2(atlas()).get("/jobs/" + id + "?files=file_state").then().statusCode(200)
                .body("files[0].file_state", equalTo("CANCELED"));
        given().auth().oauth2(atlas()).get("/jobs/" + id + "," + other).then().statusCode(200).body("[0].files", Matchers.nullValue());
        // fts-rest-server-status: host -> {active, staging}; this profile runs no engine, so no replica is live
        given().auth().oauth2(atlas()).get("/status/hosts").then().statusCode(200).body("size()", equalTo(0));
        given().get("/status/hosts").then().statusCode(401).contentType(PROBLEM);
    }

    @Test
    void jobReadsNeedAReadOrSubmitScopeAndStayWithinTheVo() throws Exception {
        String atlasJob = given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/r1", "https://cern.example/eos/r1", "{}")).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        String cmsJob = given().auth().oauth2(cms()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/r2", "https://cern.example/eos/r2", "{}")).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        long atlasFile = ((Number) given().auth().oauth2(atlas()).get("/jobs/" + atlasJob + "/files").then().statusCode(200)
                .extract().path("[0].file_id")).longValue();
        long cmsFile = ((Number) given().auth().oauth2(cms()).get("/jobs/" + cmsJob + "/files").then().statusCode(200)
                .extract().path("[0].file_id")).longValue();
        List<String> atlasReads = List.of("/jobs", "/jobs?state_in=SUBMITTED", "/jobs/" + atlasJob,
                "/jobs/" + atlasJob + "," + cmsJob, "/jobs/" + atlasJob + "/files", "/jobs/" + atlasJob + "/files/" + atlasFile + "/retries",
                "/jobs/" + atlasJob + "/events");

        // a token of the VO that may do other things, but not read transfers
        String profilesOnly = FerryTestResource.token("atlas", "profiles:write");
        for (String read : atlasReads) {
            given().auth().oauth2(profilesOnly).get(read).then().statusCode(403).contentType(PROBLEM).body("code", equalTo("FORBIDDEN"));
            given().get(read).then().statusCode(401).contentType(PROBLEM).body("code", equalTo("UNAUTHENTICATED"));
            given().auth().oauth2(profilesOnly + "x").get(read).then().statusCode(401).contentType(PROBLEM);
        }

        String reader = FerryTestResource.token("atlas", "transfer:read");
        given().auth().oauth2(reader).get("/jobs/" + atlasJob).then().statusCode(200).body("vo_name", equalTo("atlas"));
        given().auth().oauth2(reader).get("/jobs/" + atlasJob + "/files").then().statusCode(200).body("[0].file_id", equalTo((int) atlasFile));
        given().auth().oauth2(reader).get("/jobs/" + atlasJob + "/files/" + atlasFile + "/retries").then().statusCode(200);
        given().auth().oauth2(reader).get("/jobs?limit=10000").then().statusCode(200).body("job_id", hasItem(atlasJob))
                .body("job_id", not(hasItem(cmsJob)));
        given().auth().oauth2(reader).get("/jobs?vo_name=cms&limit=10000").then().statusCode(200).body("job_id", not(hasItem(cmsJob)));
        String firstEvent = firstEvent("/jobs/" + atlasJob + "/events", reader);
        Assertions.assertTrue(firstEvent.contains(atlasJob), firstEvent);

        // another VO's job does not exist for this reader
        given().auth().oauth2(reader).get("/jobs/" + cmsJob).then().statusCode(404).contentType(PROBLEM);
        given().auth().oauth2(reader).get("/jobs/" + cmsJob + "/files").then().statusCode(404).contentType(PROBLEM);
        given().auth().oauth2(reader).get("/jobs/" + cmsJob + "/files/" + cmsFile + "/retries").then().statusCode(404).contentType(PROBLEM);
        given().auth().oauth2(reader).get("/jobs/" + atlasJob + "," + cmsJob).then().statusCode(207)
                .body("[1].http_status", equalTo("404 Not Found"));
        given().auth().oauth2(reader).get("/jobs/" + cmsJob + "/events").then().statusCode(200)
                .body(Matchers.not(Matchers.containsString("data:")));

        // reading is all it may do
        given().auth().oauth2(reader).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/r3", "https://cern.example/eos/r3", "{}")).post("/jobs")
                .then().statusCode(403).contentType(PROBLEM).body("code", equalTo("FORBIDDEN"));
        given().auth().oauth2(reader).delete("/jobs/" + atlasJob).then().statusCode(403).contentType(PROBLEM);
        given().auth().oauth2(reader).delete("/jobs/" + atlasJob + "/files/" + atlasFile).then().statusCode(403).contentType(PROBLEM);
        given().auth().oauth2(reader).delete("/jobs/" + cmsJob).then().statusCode(403).contentType(PROBLEM);
        given().auth().oauth2(atlas()).get("/jobs/" + atlasJob).then().statusCode(200).body("job_state", equalTo("SUBMITTED"));

        // administrators still read every VO's jobs
        given().auth().oauth2(FerryTestResource.token(null, "transfer:admin")).get("/jobs/" + cmsJob).then().statusCode(200)
                .body("vo_name", equalTo("cms"));
    }

    /** The first {@code data:} line of an event stream; the connection is closed afterwards. */
    String firstEvent(String path, String token) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        var response = http.send(HttpRequest.newBuilder(base.toURI().resolve(path.substring(1)))
                .header("Authorization", "Bearer " + token).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        Assertions.assertEquals(200, response.statusCode());
        try (InputStream body = response.body()) {
            BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.startsWith("data:")) {
                    return line;
                }
            }
        }
        throw new AssertionError("the stream of " + path + " ended without an event");
    }

    @Test
    void urlsOutsideRegisteredEndpointsAndBadValuesAreRefusedAndStoreNothing() {
        int before = given().auth().oauth2(atlas()).get("/jobs?limit=10000").then().extract().path("size()");
        given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://elsewhere.example/data/f1", "https://cern.example/eos/f1", "{}")).post("/jobs")
                .then().statusCode(422).contentType(PROBLEM).body("code", equalTo("UNREGISTERED_ENDPOINT"))
                .body("errors.field", hasItem("files[0].sources[0]"));
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
                .post("/jobs").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("files[0].checksum"))
                .body("errors.message", hasItem("expected ADLER32:<1 to 8 hex digits> or MD5:<32 hex digits>, or the algorithm alone"));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/f1", "https://cern.example/eos/f1", "{}").replace("\"ADLER32:1a2b3c4d\"", "42"))
                .post("/jobs").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem("files[0].checksum"));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/f1", "https://cern.example/eos/f1", "{}").replace("\"ADLER32:1a2b3c4d\"", "\"ADLER32:1a2b3c4d\",\"scitag\":70000"))
                .post("/jobs").then().statusCode(400).contentType(PROBLEM).body("errors.field", equalTo(List.of("files[0].scitag")))
                .body("errors.message", hasItem("Invalid SciTag value: must be an integer in the [65, 65535] range"));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/f1", "https://cern.example/eos/f1", "{}").replace("\"ADLER32:1a2b3c4d\"", "\"ADLER32:1a2b3c4d\",\"scitag\":\"137\""))
                .post("/jobs").then().statusCode(400).contentType(PROBLEM).body("errors.field", equalTo(List.of("files[0].scitag")));
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body("{\"files\":[]}").post("/jobs").then().statusCode(400);
        given().auth().oauth2(atlas()).get("/jobs?limit=10000").then().body("size()", equalTo(before));
    }

    static final String RIGHTS = "{\"site\":\"RIGHTS-SITE\",\"baseUrls\":{\"https\":\"https://rights.example/store\"},\"access\":{\"rules\":["
            + "{\"vo\":\"atlas\",\"read\":true,\"write\":true,\"path\":\"/atlas/\"},{\"vo\":\"cms\",\"read\":true}]}}";

    static ValidatableResponse post(String token, String src, String dst) {
        return given().auth().oauth2(token).contentType(ContentType.JSON).body(job(src, dst, "{}")).post("/jobs").then();
    }

    @Test
    void storageRightsPerVoAreCheckedAtSubmissionAndARefusalStoresNothing() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        given().auth().oauth2(admin).contentType(ContentType.JSON).body(RIGHTS).put("/endpoints/RIGHTS-SE").then().statusCode(anyOf(equalTo(200), equalTo(201)))
                .body("access.open", equalTo(false)).body("access.rules[0].vo", equalTo("atlas")).body("access.rules[0].path", equalTo("/atlas/"))
                .body("access.rules[1].write", equalTo(false));
        given().auth().oauth2(admin).contentType(ContentType.JSON).body("{\"site\":\"S\",\"baseUrls\":{\"https\":\"https://closed.example/x\"}}")
                .put("/endpoints/CLOSED-SE").then().statusCode(anyOf(equalTo(200), equalTo(201))).body("access.open", equalTo(false))
                .body("access.rules.size()", equalTo(0));
        given().auth().oauth2(cms()).get("/endpoints/RIGHTS-SE").then().statusCode(200).body("access.rules[1].vo", equalTo("cms"));
        int before = given().auth().oauth2(admin).get("/jobs?limit=10000").then().extract().path("size()");

        // cms writes into an SE where only atlas may write
        post(cms(), "https://ral.example/data/r1", "https://rights.example/store/atlas/r1").statusCode(403).contentType(PROBLEM)
                .body("code", equalTo("STORAGE_ACCESS_DENIED")).body("errors.field", hasItem("files[0].destinations[0]"));
        // atlas writes outside its prefix, also next to it and through an encoded dot-segment
        for (String dst : new String[]{"https://rights.example/store/cms/r1", "https://rights.example/store/atlas2/r1",
                "https://rights.example/store/r1", "https://rights.example/store/atlas"}) {
            post(atlas(), "https://ral.example/data/r1", dst).statusCode(403).body("code", equalTo("STORAGE_ACCESS_DENIED"))
                    .body("errors.field", hasItem("files[0].destinations[0]"));
        }
        post(atlas(), "https://ral.example/data/r1", "https://rights.example/store/atlas/%2e%2E/cms/r1").statusCode(422);
        // a source without read rights
        post(FerryTestResource.token("lhcb", "transfer:submit"), "https://rights.example/store/atlas/r1", "https://cern.example/eos/r1")
                .statusCode(403).body("code", equalTo("STORAGE_ACCESS_DENIED")).body("errors.field", hasItem("files[0].sources[0]"));
        // an SE with no rules serves nobody, and an administrator's token is checked for its own VO like any other
        post(atlas(), "https://ral.example/data/r1", "https://closed.example/x/r1").statusCode(403)
                .body("errors.field", hasItem("files[0].destinations[0]"));
        post(atlas(), "https://closed.example/x/r1", "https://cern.example/eos/r1").statusCode(403)
                .body("errors.field", hasItem("files[0].sources[0]"));
        post(FerryTestResource.token("cms", "transfer:submit transfer:admin"), "https://ral.example/data/r1",
                "https://rights.example/store/atlas/r1").statusCode(403).body("code", equalTo("STORAGE_ACCESS_DENIED"));
        given().auth().oauth2(admin).get("/jobs?limit=10000").then().body("size()", equalTo(before));

        // within the rights (matched on the decoded path), and from an open SE
        post(atlas(), "https://ral.example/data/r1", "https://rights.example/store/atlas/r1").statusCode(200);
        post(atlas(), "https://ral.example/data/r1", "https://rights.example/store/%61tlas/sub/r2").statusCode(200);
        post(cms(), "https://rights.example/store/atlas/r1", "https://cern.example/eos/r1").statusCode(200);
        String stored = post(atlas(), "https://rights.example/store/atlas/r1", "https://RAL.example:443/data//copies/r%31").statusCode(200)
                .extract().path("job_id");
        given().auth().oauth2(atlas()).get("/jobs/" + stored + "/files").then().statusCode(200)
                .body("[0].dest_surl", equalTo("https://ral.example/data/copies/r1"));
    }

    @Test
    void malformedStorageRightsAreRefusedWithTheirField() {
        String admin = FerryTestResource.token(null, "transfer:admin");
        for (String[] bad : new String[][]{{"[{\"read\":true}]", "access.rules[0].vo"}, {"[{\"vo\":\"atlas\",\"read\":true,\"path\":\"/a/../b\"}]",
                "access.rules[0].path"}, {"[{\"vo\":\"atlas\",\"write\":true,\"path\":\"atlas\\u0000\"}]", "access.rules[0].path"},
                {"[{\"vo\":\"at las\",\"write\":true}]", "access.rules[0].vo"}}) {
            given().auth().oauth2(admin).contentType(ContentType.JSON)
                    .body("{\"site\":\"S\",\"baseUrls\":{\"https\":\"https://bad-rights.example/x\"},\"access\":{\"rules\":" + bad[0] + "}}")
                    .put("/endpoints/BAD-RIGHTS").then().statusCode(400).contentType(PROBLEM).body("errors.field", hasItem(bad[1]));
        }
        given().auth().oauth2(admin).get("/endpoints/BAD-RIGHTS").then().statusCode(404);
    }

    @Test
    void deterministicIdsMakeResubmissionA409() {
        String params = "{\"id_generator\":\"deterministic\",\"sid\":\"" + UUID.randomUUID() + "\"}";
        String body = job("https://ral.example/data/d1", "https://cern.example/eos/d1", params);
        String id = given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(body).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        given().auth().oauth2(atlas()).contentType(ContentType.JSON).body(body).post("/jobs").then().statusCode(409)
                .body("code", equalTo("JOB_EXISTS")).body("detail", Matchers.containsString(id));
    }

    @TestHTTPResource("/")
    URL base;

    @Test
    void eventsStreamEachFilesStateAndItsChanges() throws Exception {
        String id = given().auth().oauth2(atlas()).contentType(ContentType.JSON)
                .body(job("https://ral.example/data/e1", "https://cern.example/eos/e1", "{}")).post("/jobs").then().statusCode(200)
                .extract().path("job_id");
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        HttpClient http = HttpClient.newHttpClient();
        InputStream stream = http.send(HttpRequest.newBuilder(base.toURI().resolve("jobs/" + id + "/events"))
                        .header("Authorization", "Bearer " + atlas()).header("Accept", "text/event-stream").build(),
                HttpResponse.BodyHandlers.ofInputStream()).body();
        Thread reader = new Thread(() -> new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))
                .lines().forEach(lines::add));
        reader.setDaemon(true);
        reader.start();
        String first = poll(lines, "SUBMITTED");
        Assertions.assertTrue(first.contains(id), first);
        given().auth().oauth2(atlas()).delete("/jobs/" + id).then().statusCode(200);
        String change = poll(lines, "CANCELED");
        Assertions.assertTrue(change.contains("\"job_state\":\"CANCELED\""), change);
        // another VO hears nothing, exactly as for a job that does not exist
        given().auth().oauth2(cms()).get("/jobs/" + id + "/events").then().statusCode(200)
                .body(Matchers.not(Matchers.containsString("data:")));
        // closing the body hangs up: the server frees the stream (EventStreamsTest counts on it)
        stream.close();
    }

    static String poll(BlockingQueue<String> lines, String wanted) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 15_000;
        while (System.currentTimeMillis() < deadline) {
            String line = lines.poll(500, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith("data:") && line.contains(wanted)) {
                return line;
            }
        }
        throw new AssertionError("no event with " + wanted + " within 15 s");
    }
}
