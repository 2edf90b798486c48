package io.ferry.scheduler.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.FerryTestResource;
import io.ferry.dev.PostgresServer;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import io.ferry.scheduler.EngineFixture;
import io.ferry.scheduler.delivery.StompBroker;
import io.ferry.scheduler.transitions.JobEvents;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine end to end against a real nginx with WebDAV: jobs of many files arrive verified, failures carry their
 * codes and are retried only when that can help, cancel stops a running copy, and fair share holds under a flood.
 * Transfer records pile up in the outbox while rate-aggregator is away (here: always).
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class EngineTest extends EngineFixture {

    @Inject
    JobEvents jobEvents;

    @Test
    void aJobOfManyFilesArrivesByteIdenticalAndEveryAttemptIsRecorded() throws Exception {
        List<String> files = new ArrayList<>();
        for (int i = 0; i < 24; i++) {
            String adler = write("/se-a/many/f" + i, 100_000 + i * 7919, i);
            files.add(file("/se-a/many/f" + i, "/se-b/many/run1/f" + i, adler));
        }
        List<JobEvents.FileEvent> heard = new CopyOnWriteArrayList<>();
        Cancellable listening = jobEvents.all().subscribe().with(heard::add);
        String id = submit(vo("atlas"), files, "{\"verify_checksum\":\"both\",\"retry\":1}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(60), "FINISHED", "FINISHEDDIRTY", "FAILED");
        // every file was announced prepared, started and finished; the job FINISHED with its last file
        await().atMost(Duration.ofSeconds(5)).until(() -> heard.stream().anyMatch(e -> e.job_id().equals(id) && "FINISHED".equals(String.valueOf(e.job_state()))));
        listening.cancel();
        List<JobEvents.FileEvent> ofJob = heard.stream().filter(e -> e.job_id().equals(id)).toList();
        for (String state : List.of("READY", "ACTIVE", "FINISHED")) {
            assertEquals(24, ofJob.stream().filter(e -> String.valueOf(e.file_state()).equals(state)).map(e -> e.file_id()).distinct().count(), state + ": " + ofJob);
        }
        assertTrue(ofJob.stream().filter(e -> String.valueOf(e.file_state()).equals("READY"))
                .allMatch(e -> "prepared".equals(e.reason()) && List.of("SUBMITTED", "ACTIVE").contains(String.valueOf(e.job_state())) && e.at() != null), ofJob.toString());
        assertTrue(ofJob.stream().filter(e -> String.valueOf(e.file_state()).equals("FINISHED"))
                .allMatch(e -> List.of("ACTIVE", "FINISHED").contains(String.valueOf(e.job_state()))), ofJob.toString());
        // started files are announced with their claim (or after their job's write), before anything their copy reports
        assertTrue(ofJob.stream().filter(e -> String.valueOf(e.file_state()).equals("ACTIVE"))
                .allMatch(e -> "transfer started".equals(e.reason()) && "ACTIVE".equals(String.valueOf(e.job_state())) && e.at() != null), ofJob.toString());
        for (int i = 0; i < ofJob.size(); i++) {
            JobEvents.FileEvent e = ofJob.get(i);
            if (String.valueOf(e.file_state()).equals("FINISHED")) {
                assertTrue(ofJob.subList(0, i).stream().anyMatch(s -> s.file_id() == e.file_id() && String.valueOf(s.file_state()).equals("ACTIVE")),
                        "ACTIVE before FINISHED: " + ofJob);
            }
        }
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().body("job_state", equalTo("FINISHED")).body("job_finished", notNullValue());
        JsonPath done = files(vo("atlas"), id);
        assertEquals(24, done.getList("file_state").size());
        assertTrue(done.getList("file_state").stream().allMatch("FINISHED"::equals), done.prettify());
        for (int i = 0; i < 24; i++) {
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/many/f" + i)), Files.readAllBytes(nginx.file("/se-b/many/run1/f" + i)));
            assertEquals(100_000 + i * 7919, done.getLong("find { it.file_index == " + i + " }.bytes_transferred"));
            // the job gave no sizes: the one the source reported is shown
            assertEquals(100_000 + i * 7919, done.getLong("find { it.file_index == " + i + " }.filesize"));
        }
        // rate-aggregator is unreachable in this test: every attempt waits in the outbox, none is lost
        await().atMost(Duration.ofSeconds(10)).until(() -> outboxPending() >= 24);
        // the optimizer looked at the link and said why it chose what it chose
        await().atMost(Duration.ofSeconds(10)).until(() -> given().auth().oauth2(vo("atlas")).queryParam("source_se", "NGX-A")
                .queryParam("dest_se", "NGX-B").get("/optimizer/evolution").then().statusCode(200).extract().jsonPath().getList("rationale").size() > 0);
        given().auth().oauth2(vo("atlas")).get("/optimizer/decisions").then().statusCode(200)
                .body("find { it.source_se == 'NGX-A' && it.dest_se == 'NGX-B' }.rationale", notNullValue());
    }

    /** Rucio's WebDAV SEs are registered and submitted as dav:// (davs:// over TLS): the engine moves them as http(s). */
    /** Every loop started on the replica reports its passes and the age of its last pass, labelled by its thread's name. */
    @Test
    void theStartedLoopsReportTheirPasses() {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
            for (String loop : List.of("transfers", "prepare-queue", "lease-keeper", "queue-gauges")) {
                assertTrue(metrics.lines().anyMatch(l -> l.startsWith("ferry_loop_pass_seconds_count{loop=\"" + loop + "\",outcome=\"ok\"}")
                        && !l.endsWith(" 0.0")), loop + " reports no pass");
                assertTrue(metrics.lines().anyMatch(l -> l.startsWith("ferry_loop_last_pass_age_seconds{loop=\"" + loop + "\"}")
                        && !l.endsWith("NaN")), loop + " reports no last pass");
            }
        });
    }

    @Test
    void davUrlsAreMovedLikeHttp() throws Exception {
        Files.createDirectories(nginx.file("/dav-b"));
        String davA = nginx.url("/dav-a").replaceFirst("^http:", "dav:");
        String davB = nginx.url("/dav-b").replaceFirst("^http:", "dav:");
        register("DAV-A", "{\"site\":\"DAV-SITE\",\"baseUrls\":{\"dav\":\"" + davA + "\"},\"access\":{\"open\":true}}");
        register("DAV-B", "{\"site\":\"DAV-SITE\",\"baseUrls\":{\"dav\":\"" + davB + "\"},\"access\":{\"open\":true}}");
        String adler = write("/dav-a/f1", 150_000, 31);
        String id = submit(vo("atlas"), List.of("{\"sources\":[\"" + davA + "/f1\"],\"destinations\":[\"" + davB + "/run/f1\"],"
                + "\"checksum\":\"ADLER32:" + adler + "\"}"), "{\"verify_checksum\":\"both\"}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
        JsonPath done = files(vo("atlas"), id);
        assertEquals("FINISHED", done.getString("file_state[0]"), done.prettify());
        assertEquals(davB + "/run/f1", done.getString("dest_surl[0]"));
        assertArrayEquals(Files.readAllBytes(nginx.file("/dav-a/f1")), Files.readAllBytes(nginx.file("/dav-b/run/f1")));
    }

    @Test
    void aDestinationSeThatDoesThirdPartyCopyPullsTheFileItself() throws Exception {
        Path pki = Files.createTempDirectory("ferry-engine-pki");
        try (XrootdServer xrootd = new XrootdServer(TestCertificates.create(pki))) {
            given().auth().oauth2(admin()).contentType(ContentType.JSON)
                    .body("{\"site\":\"XRD-SITE\",\"baseUrls\":{\"http\":\"" + xrootd.httpUrl("/store") + "\"},\"thirdPartyCopy\":true,\"access\":{\"open\":true}}")
                    .put("/endpoints/XRD").then().statusCode(anyOf(equalTo(200), equalTo(201)));
            String adler = write("/se-a/tpc/f1", 2_500_000, 77);
            String body = "{\"sources\":[\"" + nginx.url("/se-a/tpc/f1") + "\"],\"destinations\":[\"" + xrootd.httpUrl("/store/tpc/run1/f1")
                    + "\"],\"checksum\":\"ADLER32:" + adler + "\"}";
            String id = submit(vo("atlas"), List.of(body), "{\"verify_checksum\":\"both\"}");
            awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
            JsonPath f = files(vo("atlas"), id);
            assertEquals("FINISHED", f.getString("[0].file_state"), f.prettify());
            assertEquals(2_500_000, f.getLong("[0].bytes_transferred"));
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/tpc/f1")), Files.readAllBytes(xrootd.file("/store/tpc/run1/f1")));
            String log = xrootd.log();
            assertTrue(log.contains("event=TRANSFER_SUCCESS, local=/store/tpc/run1/f1, remote=" + nginx.url("/se-a/tpc/f1")),
                    "the destination SE fetched the file from the source itself: " + log);
        } finally {
            given().auth().oauth2(admin()).delete("/endpoints/XRD");
            DirectoryTrees.delete(pki);
        }
    }

    /**
     * Each file's copy as [start, finish] in microseconds, from the database: the API answers FTS3's whole seconds,
     * too coarse to tell whether two copies overlapped.
     */
    static List<long[]> spans(String jobId) throws Exception {
        PostgresServer db = FerryTestResource.server();
        PostgresServer.Credentials role = FerryTestResource.databaseCredentials();
        List<long[]> spans = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(FerryTestResource.DATABASE), role.user(), role.password());
             PreparedStatement q = c.prepareStatement("SELECT (extract(epoch FROM start_time) * 1000000)::bigint, "
                     + "(extract(epoch FROM finish_time) * 1000000)::bigint FROM transfer_file WHERE job_id = ?::uuid")) {
            q.setString(1, jobId);
            try (ResultSet r = q.executeQuery()) {
                while (r.next()) {
                    spans.add(new long[]{r.getLong(1), r.getLong(2)});
                }
            }
        }
        return spans;
    }

    static double outboxPending() {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith("ferry_outbox_pending_records")).mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .findFirst().orElse(0);
    }

    @Test
    void aWrongChecksumFailsForGoodWithoutRetriesAndLeavesNoDestination() throws Exception {
        String adler = write("/se-a/bad/f1", 300_000, 42);
        String wrong = adler.equals("00000001") ? "00000002" : "00000001";
        String id = submit(vo("atlas"), List.of(file("/se-a/bad/f1", "/se-b/bad/f1", wrong)), "{\"verify_checksum\":\"both\",\"retry\":3,\"retry_delay\":0}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("CHECKSUM_MISMATCH", f.getString("[0].error_code"));
        assertEquals("checksum", f.getString("[0].error_phase"));
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id + "/files/" + f.getLong("[0].file_id") + "/retries").then().statusCode(200)
                .body("$", hasSize(0));
        assertFalse(Files.exists(nginx.file("/se-b/bad/f1")), "a copy that failed its checksum must not stay");
    }

    /**
     * FTS3's dst_file_report: with overwrite off the copy onto an existing file fails as FTS3's does (EEXIST, its
     * words), and the job that asked for the report gets the existing file's real size and ADLER32 as dst_file in the
     * file's metadata, in the status answer and in the completion message; a job that did not ask gets neither.
     */
    @Test
    void anExistingDestinationIsReportedAsDstFileOnlyWhenTheJobAsks() throws Exception {
        String metadata = ",\"metadata\":{\"request_id\":\"%s\",\"scope\":\"user.alice\"}}";
        write("/se-a/dstreport/f1", 10_000, 31);
        String there = write("/se-b/dstreport/f1", 7_000, 32);
        write("/se-a/dstreport/f2", 10_000, 33);
        write("/se-b/dstreport/f2", 5_000, 34);
        String reported = submit(vo("atlas"), List.of(file("/se-a/dstreport/f1", "/se-b/dstreport/f1", null).replaceFirst("}$", metadata.formatted("req-report"))),
                "{\"retry\":0,\"overwrite\":false,\"dst_file_report\":true}");
        String plain = submit(vo("atlas"), List.of(file("/se-a/dstreport/f2", "/se-b/dstreport/f2", null).replaceFirst("}$", metadata.formatted("req-plain"))),
                "{\"retry\":0}");
        awaitJob(vo("atlas"), reported, Duration.ofSeconds(30), "FAILED");
        awaitJob(vo("atlas"), plain, Duration.ofSeconds(30), "FAILED");

        JsonPath f = files(vo("atlas"), reported);
        assertEquals("DEST_EXISTS", f.getString("[0].error_code"));
        assertTrue(f.getString("[0].reason").contains("Destination file exists and overwrite is not enabled"), f.prettify());
        assertEquals("req-report", f.getString("[0].file_metadata.request_id"));
        assertEquals(7_000, f.getLong("[0].file_metadata.dst_file.file_size"));
        assertEquals("ADLER32", f.getString("[0].file_metadata.dst_file.checksum_type"));
        assertEquals(there, f.getString("[0].file_metadata.dst_file.checksum_value"));
        assertEquals(true, f.getBoolean("[0].file_metadata.dst_file.file_on_disk"));
        assertEquals(false, f.getBoolean("[0].file_metadata.dst_file.file_on_tape"));
        assertEquals(7_000, Files.size(nginx.file("/se-b/dstreport/f1")), "the existing file stays as it was");
        JsonPath p = files(vo("atlas"), plain);
        assertEquals("DEST_EXISTS", p.getString("[0].error_code"));
        assertEquals("req-plain", p.getString("[0].file_metadata.request_id"));
        assertNull(p.get("[0].file_metadata.dst_file"), p.prettify());

        try (StompBroker broker = new StompBroker(WithEngine.STOMP_PORT,
                "transfer.fts_monitoring_complete")) {
            await().atMost(Duration.ofSeconds(15)).until(() -> broker.bodies.stream().anyMatch(b -> b.contains(reported))
                    && broker.bodies.stream().anyMatch(b -> b.contains(plain)));
            ObjectMapper json = new ObjectMapper();
            for (String body : broker.bodies) {
                if (!body.contains(reported) && !body.contains(plain)) {
                    continue;
                }
                JsonNode m = json.readTree(body.substring(0, body.lastIndexOf('}') + 1));
                assertEquals(17, m.path("t_error_code").asInt(), body);
                assertTrue(m.path("t__error_message").asText().contains("Destination file exists and overwrite is not enabled"), body);
                JsonNode dstFile = m.path("file_metadata").path("dst_file");
                if (body.contains(reported)) {
                    assertEquals(7_000, dstFile.path("file_size").asLong(), body);
                    assertEquals("ADLER32", dstFile.path("checksum_type").asText(), body);
                    assertEquals(there, dstFile.path("checksum_value").asText(), body);
                    assertEquals("req-report", m.path("file_metadata").path("request_id").asText(), body);
                } else {
                    assertTrue(dstFile.isMissingNode(), body);
                    assertEquals("req-plain", m.path("file_metadata").path("request_id").asText(), body);
                }
            }
        }
    }

    @Test
    void aMissingSourceFailsForGoodInThePreparePhase() {
        String id = submit(vo("atlas"), List.of(file("/se-a/nothing/here", "/se-b/nothing/here", null)), "{\"retry\":3}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("SOURCE_NOT_FOUND", f.getString("[0].error_code"));
        assertEquals("prepare", f.getString("[0].error_phase"));
        assertEquals(0, f.getInt("[0].retry"));
    }

    @Test
    void anSesOutboundCapHoldsAcrossItsLinks() throws Exception {
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"CAP-SITE\",\"outboundMaxActive\":1,\"baseUrls\":{\"http\":\""
                + nginx.url("/slow/cap") + "\"},\"access\":{\"open\":true}}").put("/endpoints/NGX-CAP").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        List<String> files = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            write("/slow/cap/f" + i, 384 << 10, 300 + i);
            files.add(file("/slow/cap/f" + i, (i % 2 == 0 ? "/se-b" : "/se-c") + "/cap/f" + i, null));
        }
        String id = submit(vo("atlas"), files, "{}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(60), "FINISHED", "FAILED", "FINISHEDDIRTY");
        JsonPath f = files(vo("atlas"), id);
        assertTrue(f.getList("file_state").stream().allMatch("FINISHED"::equals), f.prettify());
        List<long[]> spans = spans(id);
        assertEquals(6, spans.size());
        for (long[] a : spans) {
            long overlapping = spans.stream().filter(b -> b[0] <= a[0] && a[0] < b[1]).count();
            assertEquals(1, overlapping, "two copies left NGX-CAP (outbound cap 1) at once");
        }
    }

    @Test
    void anSeInMaintenanceIsRetriedAndTheFileArrivesWhenItIsBack() throws Exception {
        String adler = write("/se-c/maint/f1", 200_000, 7);
        Path down = nginx.root.resolve("se-c.down");
        Files.writeString(down, "maintenance");
        try {
            String id = submit(vo("cms"), List.of(file("/se-c/maint/f1", "/se-b/maint/f1", adler)),
                    "{\"verify_checksum\":true,\"retry\":5,\"retry_delay\":1}");
            long fileId = files(vo("cms"), id).getLong("[0].file_id");
            await().atMost(Duration.ofSeconds(20)).until(() -> given().auth().oauth2(vo("cms")).get("/jobs/" + id + "/files/" + fileId + "/retries")
                    .then().statusCode(200).extract().jsonPath().getList("error_code").contains("HTTP_5XX"));
            Files.delete(down);
            awaitJob(vo("cms"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
            given().auth().oauth2(vo("cms")).get("/jobs/" + id).then().body("job_state", equalTo("FINISHED"));
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-c/maint/f1")), Files.readAllBytes(nginx.file("/se-b/maint/f1")));
            assertTrue(files(vo("cms"), id).getInt("[0].retry") >= 1);
        } finally {
            Files.deleteIfExists(down);
        }
    }

    @Test
    void cancelStopsARunningCopyAndNothingArrives() throws Exception {
        write("/slow/big/f1", 8 << 20, 3);
        String id = submit(vo("lhcb"), List.of(file("/slow/big/f1", "/se-b/big/f1", null)), "{}");
        awaitJob(vo("lhcb"), id, Duration.ofSeconds(20), "ACTIVE");
        // another VO can neither see nor stop it
        given().auth().oauth2(vo("cms")).delete("/jobs/" + id).then().statusCode(404);
        Thread.sleep(1000);
        given().auth().oauth2(vo("lhcb")).delete("/jobs/" + id).then().statusCode(200).body("job_state", equalTo("CANCELED"));
        // the copy is stopped (the cancel's NOTIFY aborts it): nginx never completes the PUT
        Thread.sleep(2000);
        assertFalse(Files.exists(nginx.file("/se-b/big/f1")));
        files(vo("lhcb"), id).getList("file_state").forEach(s -> assertEquals("CANCELED", s));
    }

    @Test
    void aFloodOfHighPriorityJobsFromOneVoDoesNotStopAnother() throws Exception {
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"min_active\":1,\"max_active\":2,\"optimizer_mode\":\"fixed\"}")
                .put("/links/NGX-SLOW/NGX-C").then().statusCode(anyOf(equalTo(200), equalTo(201)));
        List<String> flood = new ArrayList<>();
        // nginx lets a second's worth (256 KiB) through at once: 384 KiB files take about half a second each
        for (int i = 0; i < 30; i++) {
            write("/slow/flood/a" + i, 384 << 10, 100 + i);
            flood.add(file("/slow/flood/a" + i, "/se-c/flood/a" + i, null));
        }
        List<String> few = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            write("/slow/flood/b" + i, 384 << 10, 200 + i);
            few.add(file("/slow/flood/b" + i, "/se-c/flood/b" + i, null));
        }
        String atlasJob = submit(vo("atlas"), flood, "{\"priority\":5}");
        Thread.sleep(300);
        String cmsJob = submit(vo("cms"), few, "{\"priority\":1}");
        awaitJob(vo("cms"), cmsJob, Duration.ofSeconds(60), "FINISHED", "FAILED", "FINISHEDDIRTY");
        long atlasDone = files(vo("atlas"), atlasJob).getList("file_state").stream().filter("FINISHED"::equals).count();
        // strict priority would finish all 30 atlas files first; with equal weights cms gets half the link
        assertTrue(atlasDone <= 18, "atlas had finished " + atlasDone + " of 30 files when cms's 6 were done");
        given().auth().oauth2(vo("cms")).get("/jobs/" + cmsJob).then().body("job_state", equalTo("FINISHED"));
        awaitJob(vo("atlas"), atlasJob, Duration.ofSeconds(90), "FINISHED", "FAILED", "FINISHEDDIRTY");
        assertEquals("FINISHED", given().auth().oauth2(vo("atlas")).get("/jobs/" + atlasJob).then().extract().path("job_state"));
        // the link's max_active (2) was never exceeded, counting both VOs' files
        List<long[]> spans = new ArrayList<>(spans(atlasJob));
        spans.addAll(spans(cmsJob));
        int most = 0;
        for (long[] a : spans) {
            int overlapping = 0;
            for (long[] b : spans) {
                if (b[0] <= a[0] && a[0] < b[1]) {
                    overlapping++;
                }
            }
            most = Math.max(most, overlapping);
        }
        assertTrue(most <= 2, "up to " + most + " transfers ran at once on a link with max_active 2");
        assertEquals(2, most, "the link should have been used at its max_active");
    }
}
