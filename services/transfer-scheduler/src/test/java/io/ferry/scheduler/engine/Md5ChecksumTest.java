package io.ferry.scheduler.engine;

import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Jobs whose files carry MD5, as Rucio sends it for RSEs that support MD5 only, against a real nginx with WebDAV (which
 * answers no Digest: the streamed MD5 is compared with the job's, the destination's is read back).
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class Md5ChecksumTest extends EngineFixture {

    static String md5(String path) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(Files.readAllBytes(nginx.file(path))));
    }

    static String fileWith(String src, String dst, String checksum) {
        return "{\"sources\":[\"" + nginx.url(src) + "\"],\"destinations\":[\"" + nginx.url(dst) + "\"],\"checksum\":\"" + checksum + "\"}";
    }

    @Test
    void aFileWhoseMd5MatchesFinishesAndShowsItsChecksum() throws Exception {
        write("/se-a/md5/ok", 400_000, 51);
        String md5 = md5("/se-a/md5/ok");
        String id = submit(vo("atlas"), List.of(fileWith("/se-a/md5/ok", "/se-b/md5/ok", "MD5:" + md5.toUpperCase())),
                "{\"verify_checksum\":\"both\"}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("FINISHED", f.getString("[0].file_state"), f.prettify());
        assertEquals("MD5:" + md5, f.getString("[0].checksum"), "stored in one spelling");
        assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/md5/ok")), Files.readAllBytes(nginx.file("/se-b/md5/ok")));
    }

    @Test
    void aWrongMd5FailsForGoodWithTheMismatchAndLeavesNoDestination() throws Exception {
        write("/se-a/md5/bad", 300_000, 52);
        String md5 = md5("/se-a/md5/bad");
        String wrong = md5.startsWith("0") ? "1" + md5.substring(1) : "0" + md5.substring(1);
        String id = submit(vo("atlas"), List.of(fileWith("/se-a/md5/bad", "/se-b/md5/bad", "md5:" + wrong)),
                "{\"verify_checksum\":\"source\",\"retry\":3,\"retry_delay\":0}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("CHECKSUM_MISMATCH", f.getString("[0].error_code"));
        assertEquals("checksum", f.getString("[0].error_phase"));
        assertTrue(f.getString("[0].reason").contains("Source and user-defined MD5 checksum do not match (" + md5 + " != " + wrong + ")"), f.prettify());
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id + "/files/" + f.getLong("[0].file_id") + "/retries").then().statusCode(200)
                .body("$", hasSize(0));
        assertFalse(Files.exists(nginx.file("/se-b/md5/bad")), "a copy that failed its checksum must not stay");
    }

    /** FTS3's "MD5" alone: no value to compare with, the copy's MD5 is compared with the destination's. */
    @Test
    void theAlgorithmAloneComparesTheCopysOwnMd5s() throws Exception {
        write("/se-a/md5/alone", 200_000, 53);
        String id = submit(vo("atlas"), List.of(fileWith("/se-a/md5/alone", "/se-b/md5/alone", "MD5")), "{\"verify_checksum\":\"both\"}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("FINISHED", f.getString("[0].file_state"), f.prettify());
        assertEquals("MD5", f.getString("[0].checksum"));
    }

    /** dst_file_report of a file whose job names MD5: the existing destination's MD5, as FTS3 asks gfal2 in the job's algorithm. */
    @Test
    void anExistingDestinationIsReportedInTheJobsAlgorithm() throws Exception {
        write("/se-a/md5/report", 10_000, 54);
        write("/se-b/md5/report", 6_000, 55);
        String there = md5("/se-b/md5/report");
        String id = submit(vo("atlas"), List.of(fileWith("/se-a/md5/report", "/se-b/md5/report", "MD5:" + md5("/se-a/md5/report"))),
                "{\"verify_checksum\":\"both\",\"retry\":0,\"overwrite\":false,\"dst_file_report\":true}");
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("DEST_EXISTS", f.getString("[0].error_code"), f.prettify());
        assertEquals(6_000, f.getLong("[0].file_metadata.dst_file.file_size"));
        assertEquals("MD5", f.getString("[0].file_metadata.dst_file.checksum_type"));
        assertEquals(there, f.getString("[0].file_metadata.dst_file.checksum_value"));
    }
}
