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
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code params.sync_level} end to end against a real nginx with WebDAV (it answers no Digest, so a destination's
 * checksum is read back, and the source's is the job's or read too): files already at the destination end FINISHED with the
 * reason, no PUT and no transfer record; the others are copied, replacing what differs.
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class SyncLevelTest extends EngineFixture {

    static final int FILES = 300;

    static String sync(String level) {
        return "{\"sync_level\":\"" + level + "\"}";
    }

    /** The PUTs nginx served below {@code prefix} since its log had {@code from} lines. */
    static List<String> putsSince(int from, String prefix) throws Exception {
        List<String> requests = nginx.requests();
        return requests.subList(from, requests.size()).stream().filter(r -> r.startsWith("PUT " + prefix)).toList();
    }

    @Test
    void aSecondRunWithSyncChecksumFinishesEveryFileWithoutCopyingIt() throws Exception {
        List<String> files = new ArrayList<>();
        for (int i = 0; i < FILES; i++) {
            String adler = write("/se-a/sync/run/f" + i, 4096, 1000 + i);
            files.add(file("/se-a/sync/run/f" + i, "/se-b/sync/run/f" + i, adler));
        }
        long t0 = System.nanoTime();
        String first = submit(vo("atlas"), files, sync("checksum"));
        assertEquals("FINISHED", awaitJob(vo("atlas"), first, Duration.ofSeconds(180), "FINISHED", "FINISHEDDIRTY", "FAILED"));
        long firstMillis = (System.nanoTime() - t0) / 1_000_000;
        Instant copiedAt = Files.getLastModifiedTime(nginx.file("/se-b/sync/run/f0")).toInstant();

        int logged = nginx.requests().size();
        long t1 = System.nanoTime();
        String second = submit(vo("atlas"), files, sync("checksum"));
        assertEquals("FINISHED", awaitJob(vo("atlas"), second, Duration.ofSeconds(180), "FINISHED", "FINISHEDDIRTY", "FAILED"));
        long secondMillis = (System.nanoTime() - t1) / 1_000_000;
        System.out.printf("sync_level checksum, %d files of 4 KiB: first run %d ms, second run %d ms%n", FILES, firstMillis, secondMillis);

        JsonPath f = files(vo("atlas"), second);
        for (int i = 0; i < FILES; i++) {
            assertEquals("FINISHED", f.getString("[" + i + "].file_state"), f.getString("[" + i + "].reason"));
            assertTrue(f.getString("[" + i + "].reason").matches("already at the destination \\(sync_level checksum: adler32 [0-9a-f]{8} matches\\)"),
                    f.getString("[" + i + "].reason"));
            assertEquals(0L, f.getLong("[" + i + "].bytes_transferred"));
        }
        assertEquals(List.of(), putsSince(logged, "/se-b/sync/run/"), "nothing was written again");
        assertEquals(copiedAt, Files.getLastModifiedTime(nginx.file("/se-b/sync/run/f0")).toInstant());
        assertEquals(0, count("SELECT count(*) FROM record_outbox WHERE payload::jsonb ->> 'job_id' = '" + second + "'"),
                "no attempt ran: no transfer record, so no zero-byte throughput sample");
        assertEquals(FILES, count("SELECT count(*) FROM record_outbox WHERE payload::jsonb ->> 'job_id' = '" + first + "'"));
    }

    @Test
    void aChangedSourceOfTheSameSizeIsCopiedUnderChecksumButNotUnderSize() throws Exception {
        String old = write("/se-a/sync/changed/f", 50_000, 1);
        String id = submit(vo("atlas"), List.of(file("/se-a/sync/changed/f", "/se-b/sync/changed/f", old)), "{}");
        assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"));
        String changed = write("/se-a/sync/changed/f", 50_000, 2);

        String bySize = submit(vo("atlas"), List.of(file("/se-a/sync/changed/f", "/se-b/sync/changed/f", changed)), sync("size"));
        assertEquals("FINISHED", awaitJob(vo("atlas"), bySize, Duration.ofSeconds(30), "FINISHED", "FAILED"));
        assertEquals("already at the destination (sync_level size: 50000 bytes match)", files(vo("atlas"), bySize).getString("[0].reason"));
        assertFalse(java.util.Arrays.equals(Files.readAllBytes(nginx.file("/se-a/sync/changed/f")), Files.readAllBytes(nginx.file("/se-b/sync/changed/f"))),
                "size alone cannot tell the change");

        String byChecksum = submit(vo("atlas"), List.of(file("/se-a/sync/changed/f", "/se-b/sync/changed/f", changed)), sync("checksum"));
        assertEquals("FINISHED", awaitJob(vo("atlas"), byChecksum, Duration.ofSeconds(30), "FINISHED", "FAILED"));
        JsonPath f = files(vo("atlas"), byChecksum);
        assertNull(f.getString("[0].reason"), "copied: " + f.prettify());
        assertEquals(50_000L, f.getLong("[0].bytes_transferred"));
        assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/sync/changed/f")), Files.readAllBytes(nginx.file("/se-b/sync/changed/f")));
    }

    @Test
    void withoutAKnownSourceChecksumBothSidesAreReadAndCompared() throws Exception {
        write("/se-a/sync/nosum/same", 20_000, 3);
        write("/se-b/sync/nosum/same", 20_000, 3);
        write("/se-a/sync/nosum/other", 20_000, 4);
        write("/se-b/sync/nosum/other", 20_000, 5);
        int logged = nginx.requests().size();
        // nginx gives no digest and the job no checksum: Ferry reads both sides of a file whose sizes match
        String id = submit(vo("atlas"), List.of(file("/se-a/sync/nosum/same", "/se-b/sync/nosum/same", null),
                file("/se-a/sync/nosum/other", "/se-b/sync/nosum/other", null)), sync("checksum"));
        assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"));
        JsonPath f = files(vo("atlas"), id);
        assertTrue(f.getString("[0].reason").matches("already at the destination \\(sync_level checksum: adler32 [0-9a-f]{8} matches\\)"), f.prettify());
        assertNull(f.getString("[1].reason"), f.prettify());
        List<String> puts = putsSince(logged, "/se-b/sync/nosum/");
        assertEquals(1, puts.size(), puts.toString());
        assertTrue(puts.get(0).contains("/se-b/sync/nosum/other"), puts.toString());
        assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/sync/nosum/other")), Files.readAllBytes(nginx.file("/se-b/sync/nosum/other")));
    }

    @Test
    void existsKeepsAnyDestinationAndCopiesAMissingOne() throws Exception {
        write("/se-a/sync/exists/there", 30_000, 4);
        write("/se-b/sync/exists/there", 10, 5);
        write("/se-a/sync/exists/missing", 30_000, 6);
        String id = submit(vo("atlas"), List.of(file("/se-a/sync/exists/there", "/se-b/sync/exists/there", null),
                file("/se-a/sync/exists/missing", "/se-b/sync/exists/missing", null)), "{\"sync_level\":0,\"max_rate\":\"50MB/s\"}");
        assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FINISHED", "FAILED"));
        // the job says how it syncs and what it is capped at, so that people (and ferry resubmit) can read them back
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().statusCode(200)
                .body("sync_level", equalTo("exists")).body("max_rate", equalTo(50_000_000));
        JsonPath f = files(vo("atlas"), id);
        assertEquals("already at the destination (sync_level exists)", f.getString("find { it.dest_surl.endsWith('/there') }.reason"));
        assertEquals(10, Files.size(nginx.file("/se-b/sync/exists/there")));
        assertEquals(30_000, Files.size(nginx.file("/se-b/sync/exists/missing")));
    }

    @Test
    void mtimeCopiesASourceNewerThanTheDestinationAndReplacesIt() throws Exception {
        write("/se-a/sync/mtime/f", 40_000, 7);
        write("/se-b/sync/mtime/f", 40_000, 8);
        Instant now = Instant.now();
        Files.setLastModifiedTime(nginx.file("/se-b/sync/mtime/f"), FileTime.from(now.minus(Duration.ofHours(2))));
        Files.setLastModifiedTime(nginx.file("/se-a/sync/mtime/f"), FileTime.from(now.minus(Duration.ofHours(1))));
        String newer = submit(vo("atlas"), List.of(file("/se-a/sync/mtime/f", "/se-b/sync/mtime/f", null)), sync("mtime"));
        assertEquals("FINISHED", awaitJob(vo("atlas"), newer, Duration.ofSeconds(30), "FINISHED", "FAILED"));
        assertNull(files(vo("atlas"), newer).getString("[0].reason"), "the source is newer: copied, over the destination");
        assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/sync/mtime/f")), Files.readAllBytes(nginx.file("/se-b/sync/mtime/f")));

        String again = submit(vo("atlas"), List.of(file("/se-a/sync/mtime/f", "/se-b/sync/mtime/f", null)), sync("mtime"));
        assertEquals("FINISHED", awaitJob(vo("atlas"), again, Duration.ofSeconds(30), "FINISHED", "FAILED"));
        assertEquals("already at the destination (sync_level mtime: 40000 bytes, not older than the source)",
                files(vo("atlas"), again).getString("[0].reason"));
    }

    @Test
    void aWrongSyncLevelIsRefusedNamingIt() {
        post(vo("atlas"), file("/se-a/sync/x", "/se-b/sync/x", null), "{\"sync_level\":\"newer\"}").statusCode(400)
                .body("errors.field", hasItem("params.sync_level"));
    }
}
