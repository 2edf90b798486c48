package io.ferry.scheduler.tape;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.ferry.dev.FerryTestResource;
import io.ferry.dev.TapeRestServer;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Tape SEs end to end against a stand-in WLCG Tape REST endpoint: staging and its pin, bring_online, archiving, and dst_file's locality. */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class TapeTest extends EngineFixture {

    @Test
    void aFileOnTapeIsStagedFirstAndMovedOnceOnDisk() throws Exception {
        // A WLCG Tape REST endpoint that brings a file online on the third poll, and not before the test saw it staging
        // (on a busy machine a poll of the job's state can take longer than three stage polls)
        List<String> requests = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger polls = new AtomicInteger();
        AtomicBoolean seenStaging = new AtomicBoolean();
        HttpServer tape = HttpServer.create(
                new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        tape.createContext("/api/v1/stage", exchange -> {
            String answer;
            int status = 200;
            if (exchange.getRequestMethod().equals("POST")) {
                requests.add(new String(exchange.getRequestBody().readAllBytes()));
                answer = "{\"requestId\":\"req-1\"}";
                status = 201;
            } else {
                boolean onDisk = polls.incrementAndGet() >= 3 && seenStaging.get();
                answer = "{\"id\":\"req-1\",\"files\":[{\"path\":\"/se-a/tape/raw/f1\",\"onDisk\":" + onDisk + "}]}";
            }
            byte[] body = answer.getBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        tape.start();
        try {
            given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"TAPE-SITE\",\"needsPrepare\":true,\"baseUrls\":{\"http\":\""
                    + nginx.url("/se-a/tape") + "\",\"tape\":\"http://127.0.0.1:" + tape.getAddress().getPort() + "/api/v1\"},\"access\":{\"open\":true}}")
                    .put("/endpoints/NGX-TAPE").then().statusCode(anyOf(equalTo(200), equalTo(201)));
            String adler = write("/se-a/tape/raw/f1", 150_000, 11);
            String id = submit(vo("atlas"), List.of(file("/se-a/tape/raw/f1", "/se-b/from-tape/f1", adler)), "{\"verify_checksum\":\"both\"}");
            assertEquals("STAGING", awaitJob(vo("atlas"), id, Duration.ofSeconds(20), "STAGING"));
            seenStaging.set(true);
            assertEquals("NGX-TAPE", files(vo("atlas"), id).getString("[0].source_se"));
            awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
            given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().body("job_state", equalTo("FINISHED"));
            assertEquals(1, requests.size());
            assertTrue(requests.get(0).contains("/se-a/tape/raw/f1"), requests.get(0));
            assertTrue(polls.get() >= 3, "polled " + polls.get() + " times");
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/tape/raw/f1")), Files.readAllBytes(nginx.file("/se-b/from-tape/f1")));
            // FTS3's bring-online times, in its format: the request went out before the file came online
            JsonPath staged = files(vo("atlas"), id);
            String start = staged.getString("[0].staging_start");
            String online = staged.getString("[0].staging_finished");
            assertTrue(start != null && start.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d"), staged.prettify());
            assertTrue(online != null && online.matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d"), staged.prettify());
            assertTrue(start.compareTo(online) <= 0, start + " after " + online);
            assertTrue(online.compareTo(staged.getString("[0].finish_time")) <= 0, staged.prettify());
        } finally {
            tape.stop(0);
        }
    }

    /** Registers an SE on nginx's {@code base} whose Tape REST endpoint is {@code tape}; needsPrepare false: the job's params decide. */
    static void registerTapeSe(String name, String base, TapeRestServer tape) {
        try {
            // the SE's base collection exists, as on a real SE (Ferry creates collections below it only)
            Files.createDirectories(nginx.file(base));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"site\":\"TAPE-SITE\",\"baseUrls\":{\"http\":\""
                + nginx.url(base) + "\",\"tape\":\"" + tape.url() + "\"},\"access\":{\"open\":true}}")
                .put("/endpoints/" + name).then().statusCode(anyOf(equalTo(200), equalTo(201)));
    }

    /**
     * FTS3's staging job: bring_online and copy_pin_lifetime stage the source first (even on an SE not marked as
     * needing it), the stage request carries the pin as diskLifetime and staging_metadata as targetedMetadata, every
     * Tape REST call carries the file's own source token, and once copied the request is released with the path.
     */
    @Test
    void aStagingJobIsStagedWithItsPinAndMetadataCopiedAndReleased() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(2, -1)) {
            registerTapeSe("NGX-TAPE-BO", "/se-a/tape-bo", tape);
            String adler = write("/se-a/tape-bo/f1", 90_000, 41);
            String tokens = ",\"source_tokens\":[\"" + SOURCE_TOKEN + "\"],\"destination_tokens\":[\"" + DEST_TOKEN + "\"]}";
            String file = file("/se-a/tape-bo/f1", "/se-b/from-tape-bo/f1", adler);
            String id = submit(vo("atlas"), List.of(file.substring(0, file.length() - 1) + tokens),
                    "{\"bring_online\":600,\"copy_pin_lifetime\":3600,\"staging_metadata\":{\"priority\":\"high\"}}");
            assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"), files(vo("atlas"), id).prettify());
            assertEquals(List.of(), tape.refused);
            List<TapeRestServer.Request> stages = tape.requests("POST", "/stage");
            assertEquals(1, stages.size(), tape.requests.toString());
            String host = URI.create(nginx.url("/")).getHost();
            assertEquals("{\"files\":[{\"path\":\"/se-a/tape-bo/f1\",\"diskLifetime\":\"PT3600S\",\"targetedMetadata\":{\"" + host
                    + "\":{\"priority\":\"high\"}}}]}", stages.get(0).body().toString());
            String requestId = "req-1";
            assertTrue(tape.requests("GET", "/stage/" + requestId).size() >= 2, tape.requests.toString());
            await().atMost(Duration.ofSeconds(5)).until(() -> tape.requests("POST", "/release/").size() == 1);
            TapeRestServer.Request release = tape.requests("POST", "/release/").get(0);
            assertEquals("/release/" + requestId, release.path());
            assertEquals("{\"paths\":[\"/se-a/tape-bo/f1\"]}", release.body().toString());
            // the file's own token toward its source, on every call (stage, polls, release)
            tape.requests.forEach(r -> assertEquals("Bearer " + SOURCE_TOKEN, r.authorization(), r.toString()));
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/tape-bo/f1")), Files.readAllBytes(nginx.file("/se-b/from-tape-bo/f1")));
            JsonPath staged = files(vo("atlas"), id);
            assertTrue(staged.getString("[0].staging_start") != null && staged.getString("[0].staging_finished") != null, staged.prettify());
        }
    }

    /**
     * FTS3's bulk staging: the files of a staging job on one tape SE go out in one stage request, each with its own
     * staging_metadata where it has one (Rucio's shape) and the job's otherwise, and the request is polled with one
     * question per round for all of them; each file is released on its own once copied.
     */
    @Test
    void aJobsFilesOnOneTapeSeAreStagedInOneRequestAndPolledTogether() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(2, -1)) {
            registerTapeSe("NGX-TAPE-BULK", "/se-a/tape-bulk", tape);
            List<String> files = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                String f = file("/se-a/tape-bulk/f" + i, "/se-b/from-tape-bulk/f" + i, write("/se-a/tape-bulk/f" + i, 20_000 + i, 60 + i));
                files.add(i == 0 ? f.substring(0, f.length() - 1) + ",\"staging_metadata\":{\"default\":{\"activity\":\"Express\"}}}" : f);
            }
            String id = submit(vo("atlas"), files, "{\"bring_online\":600,\"copy_pin_lifetime\":3600,\"staging_metadata\":{\"priority\":\"high\"}}");
            assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(40), "FINISHED", "FAILED"), files(vo("atlas"), id).prettify());
            assertEquals(List.of(), tape.refused);
            List<TapeRestServer.Request> stages = tape.requests("POST", "/stage");
            assertEquals(1, stages.size(), tape.requests.toString());
            java.util.Map<String, JsonNode> sent = new java.util.TreeMap<>();
            stages.get(0).body().get("files").forEach(f -> sent.put(f.get("path").asText(), f));
            assertEquals(6, sent.size(), stages.get(0).body().toString());
            String host = URI.create(nginx.url("/")).getHost();
            for (int i = 0; i < 6; i++) {
                JsonNode f = sent.get("/se-a/tape-bulk/f" + i);
                assertEquals("PT3600S", f.get("diskLifetime").asText(), f.toString());
                // the file's own metadata, else the job's
                assertEquals(i == 0 ? "{\"" + host + "\":{\"default\":{\"activity\":\"Express\"}}}" : "{\"" + host + "\":{\"priority\":\"high\"}}",
                        f.get("targetedMetadata").toString());
            }
            JsonPath listed = files(vo("atlas"), id);
            assertEquals("Express", listed.getString("find { it.file_index == 0 }.staging_metadata.default.activity"), "FTS3's file column");
            assertNull(listed.get("find { it.file_index == 1 }.staging_metadata"));
            // the files come online on the request's second poll: two questions in all, not two per file
            assertEquals(2, tape.requests("GET", "/stage/").size(), tape.requests.toString());
            await().atMost(Duration.ofSeconds(5)).until(() -> tape.requests("POST", "/release/").size() == 6);
            for (int i = 0; i < 6; i++) {
                assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/tape-bulk/f" + i)), Files.readAllBytes(nginx.file("/se-b/from-tape-bulk/f" + i)));
            }
        }
    }

    /** A file not online within bring_online fails with FTS3's reason, its stage request cancelled; nothing is copied. */
    @Test
    void aStageThatOutlastsBringOnlineFailsAndIsCancelled() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(-1, -1)) {
            registerTapeSe("NGX-TAPE-SLOW", "/se-a/tape-slow", tape);
            write("/se-a/tape-slow/f1", 10_000, 42);
            String id = submit(vo("atlas"), List.of(file("/se-a/tape-slow/f1", "/se-b/from-tape-slow/f1", null)), "{\"bring_online\":1,\"retry\":0}");
            assertEquals("FAILED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"));
            JsonPath f = files(vo("atlas"), id);
            assertEquals("bring-online timeout has been exceeded", f.getString("[0].reason"), f.prettify());
            assertEquals(List.of(), tape.refused);
            List<TapeRestServer.Request> cancels = tape.requests("POST", "/stage/req-1/cancel");
            assertEquals(1, cancels.size(), tape.requests.toString());
            assertEquals("{\"paths\":[\"/se-a/tape-slow/f1\"]}", cancels.get(0).body().toString());
            assertEquals(List.of(), tape.requests("POST", "/release/"));
            assertFalse(Files.exists(nginx.file("/se-b/from-tape-slow/f1")));
        }
    }

    /**
     * FTS3's archive monitoring: a copy to a tape SE for a job with archive_timeout is ARCHIVING (the job ACTIVE) until
     * archiveinfo, asked with the file's own destination token, says it is on tape; then FINISHED.
     */
    @Test
    void aCopyToTapeIsArchivingUntilOnTapeThenFinished() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(-1, -1)) {
            registerTapeSe("NGX-TAPE-DST", "/se-b/tape-dst", tape);
            String adler = write("/se-a/to-tape/f1", 70_000, 43);
            String tokens = ",\"source_tokens\":[\"" + SOURCE_TOKEN + "\"],\"destination_tokens\":[\"" + DEST_TOKEN + "\"]}";
            String file = file("/se-a/to-tape/f1", "/se-b/tape-dst/f1", adler);
            String archiveMetadata = "{\"collection\":\"run3/raw\",\"family\":\"atlas-raw\"}";
            String id = submit(vo("atlas"), List.of(file.substring(0, file.length() - 1) + ",\"archive_metadata\":" + archiveMetadata + tokens),
                    "{\"archive_timeout\":120}");
            await().atMost(Duration.ofSeconds(30)).until(() -> "ARCHIVING".equals(files(vo("atlas"), id).getString("[0].file_state")));
            given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().body("job_state", equalTo("ACTIVE"));
            await().atMost(Duration.ofSeconds(5)).until(() -> tape.requests("POST", "/archiveinfo").size() >= 2);
            assertEquals("ARCHIVING", files(vo("atlas"), id).getString("[0].file_state"));
            tape.reachTapeAfter(2);
            assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(20), "FINISHED", "FAILED"), files(vo("atlas"), id).prettify());
            assertEquals(List.of(), tape.refused);
            List<TapeRestServer.Request> asked = tape.requests("POST", "/archiveinfo");
            assertTrue(asked.size() >= 4, asked.toString());
            asked.forEach(r -> {
                assertEquals("{\"paths\":[\"/se-b/tape-dst/f1\"]}", r.body().toString());
                assertEquals("Bearer " + DEST_TOKEN, r.authorization(), r.toString());
            });
            // the archive metadata went with the upload, base64 in the header gfal2 uses
            assertTrue(nginx.archiveMetadataRequests().contains("PUT /se-b/tape-dst/f1 archive="
                    + java.util.Base64.getEncoder().encodeToString(archiveMetadata.getBytes(java.nio.charset.StandardCharsets.UTF_8))),
                    nginx.archiveMetadataRequests().toString());
            // nothing was staged or released: the source is on disk
            assertEquals(asked.size(), tape.requests.size(), tape.requests.toString());
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/to-tape/f1")), Files.readAllBytes(nginx.file("/se-b/tape-dst/f1")));
        }
    }

    /** A copy that does not reach tape within archive_timeout fails with FTS3's reason, in phase ARCHIVING. */
    @Test
    void aCopyNotOnTapeWithinArchiveTimeoutFails() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(-1, -1)) {
            registerTapeSe("NGX-TAPE-DST2", "/se-b/tape-dst2", tape);
            write("/se-a/to-tape2/f1", 20_000, 44);
            String id = submit(vo("atlas"), List.of(file("/se-a/to-tape2/f1", "/se-b/tape-dst2/f1", null)), "{\"archive_timeout\":1,\"retry\":0}");
            assertEquals("FAILED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"));
            JsonPath f = files(vo("atlas"), id);
            assertEquals("archive timeout has been exceeded", f.getString("[0].reason"), f.prettify());
            assertEquals("ARCHIVING", f.getString("[0].error_phase"), f.prettify());
            assertEquals(List.of(), tape.refused);
            assertTrue(Files.exists(nginx.file("/se-b/tape-dst2/f1")), "the copy itself was made");
        }
    }

    /**
     * Rucio's tape submission (archive_timeout with dst_file_report) onto a file already on the tape SE: FAILED as
     * FTS3's, and dst_file says where the file is as the SE's archiveinfo tells (on tape and on disk here).
     */
    @Test
    void anExistingDestinationOnATapeSeIsReportedWithItsLocality() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(-1, 0)) {
            registerTapeSe("NGX-TAPE-DST3", "/se-b/tape-dst3", tape);
            write("/se-a/to-tape3/f1", 20_000, 45);
            String there = write("/se-b/tape-dst3/f1", 20_000, 46);
            String id = submit(vo("atlas"), List.of(file("/se-a/to-tape3/f1", "/se-b/tape-dst3/f1", null)),
                    "{\"archive_timeout\":120,\"dst_file_report\":true,\"retry\":0}");
            assertEquals("FAILED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"));
            JsonPath f = files(vo("atlas"), id);
            assertEquals("DEST_EXISTS", f.getString("[0].error_code"), f.prettify());
            assertEquals(20_000, f.getLong("[0].file_metadata.dst_file.file_size"), f.prettify());
            assertEquals(there, f.getString("[0].file_metadata.dst_file.checksum_value"));
            assertEquals(true, f.getBoolean("[0].file_metadata.dst_file.file_on_tape"));
            assertEquals(true, f.getBoolean("[0].file_metadata.dst_file.file_on_disk"));
            assertEquals("{\"paths\":[\"/se-b/tape-dst3/f1\"]}", tape.requests("POST", "/archiveinfo").get(0).body().toString());
            assertEquals(List.of(), tape.refused);
        }
    }

    /** Sets FTS3's overwrite_disk_enabled on an SE, as its operators do through /config/se. */
    static void enableOverwriteOnDisk(String se) {
        given().auth().oauth2(admin()).contentType(ContentType.JSON).body("{\"" + se + "\":{\"se_info\":{\"overwrite_disk_enabled\":1}}}")
                .post("/config/se").then().statusCode(anyOf(equalTo(200), equalTo(201)));
    }

    static final String ON_DISK_ONLY = "{\"archive_timeout\":120,\"overwrite_when_only_on_disk\":true,\"retry\":0}";

    /**
     * Rucio's submission to a tape SE (overwrite_when_only_on_disk, no overwrite) onto a file that never reached tape:
     * as FTS3's url-copy, the file is on disk only, so it is removed and copied again, then followed until on tape.
     */
    @Test
    void anExistingDestinationOnDiskOnlyIsReplacedWhenTheJobAsksAndTheSeAllowsIt() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(-1, -1)) {
            registerTapeSe("NGX-TAPE-OWD1", "/se-b/tape-owd1", tape);
            enableOverwriteOnDisk("NGX-TAPE-OWD1");
            write("/se-a/to-owd1/f1", 30_000, 47);
            write("/se-b/tape-owd1/f1", 10_000, 48);
            String id = submit(vo("atlas"), List.of(file("/se-a/to-owd1/f1", "/se-b/tape-owd1/f1", null)), ON_DISK_ONLY);
            await().atMost(Duration.ofSeconds(30)).until(() -> "ARCHIVING".equals(files(vo("atlas"), id).getString("[0].file_state")));
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/to-owd1/f1")), Files.readAllBytes(nginx.file("/se-b/tape-owd1/f1")),
                    "the file on disk only was replaced by the copy");
            assertEquals("{\"paths\":[\"/se-b/tape-owd1/f1\"]}", tape.requests("POST", "/archiveinfo").get(0).body().toString(),
                    "its locality was asked before it was removed");
            tape.reachTapeAfter(0);
            assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(20), "FINISHED", "FAILED"), files(vo("atlas"), id).prettify());
            assertEquals(List.of(), tape.refused);
        }
    }

    /** A file on tape is never replaced: FAILED with FTS3's reason, and with dst_file_report its dst_file says so. */
    @Test
    void anExistingDestinationOnTapeIsLeftAloneWithFts3sReason() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(-1, 0)) {
            registerTapeSe("NGX-TAPE-OWD2", "/se-b/tape-owd2", tape);
            enableOverwriteOnDisk("NGX-TAPE-OWD2");
            write("/se-a/to-owd2/f1", 30_000, 49);
            write("/se-b/tape-owd2/f1", 10_000, 50);
            byte[] before = Files.readAllBytes(nginx.file("/se-b/tape-owd2/f1"));
            String id = submit(vo("atlas"), List.of(file("/se-a/to-owd2/f1", "/se-b/tape-owd2/f1", null)),
                    ON_DISK_ONLY.replace("}", ",\"dst_file_report\":true}"));
            assertEquals("FAILED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"));
            JsonPath f = files(vo("atlas"), id);
            assertEquals("Destination file exists and is on tape (overwrite-when-only-on-disk requested)", f.getString("[0].reason"), f.prettify());
            assertEquals("DEST_EXISTS", f.getString("[0].error_code"), f.prettify());
            assertEquals(true, f.getBoolean("[0].file_metadata.dst_file.file_on_tape"), f.prettify());
            assertArrayEquals(before, Files.readAllBytes(nginx.file("/se-b/tape-owd2/f1")));
        }
    }

    /** An SE its operators did not enable for it (FTS3's overwrite_disk_enabled): the file is kept, FTS3's reason says why. */
    @Test
    void anSeNotEnabledForOverwriteOnDiskKeepsItsFile() throws Exception {
        try (TapeRestServer tape = new TapeRestServer(-1, -1)) {
            registerTapeSe("NGX-TAPE-OWD3", "/se-b/tape-owd3", tape);
            write("/se-a/to-owd3/f1", 30_000, 51);
            write("/se-b/tape-owd3/f1", 10_000, 52);
            byte[] before = Files.readAllBytes(nginx.file("/se-b/tape-owd3/f1"));
            String id = submit(vo("atlas"), List.of(file("/se-a/to-owd3/f1", "/se-b/tape-owd3/f1", null)), ON_DISK_ONLY);
            assertEquals("FAILED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"));
            JsonPath f = files(vo("atlas"), id);
            assertEquals("Destination endpoint not configured with \"overwrite-disk-enabled\" (overwrite-when-only-on-disk requested)",
                    f.getString("[0].reason"), f.prettify());
            assertArrayEquals(before, Files.readAllBytes(nginx.file("/se-b/tape-owd3/f1")));
            assertEquals(List.of(), tape.requests("POST", "/archiveinfo"), "nothing asked of an SE that does not allow it");
        }
    }
}
