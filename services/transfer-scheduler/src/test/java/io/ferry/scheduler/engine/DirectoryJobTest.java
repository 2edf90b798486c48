package io.ferry.scheduler.engine;

import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.FerryTestResource;
import io.ferry.dev.S3Server;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import io.ferry.movers.S3Access;
import io.ferry.movers.S3Keys;
import io.ferry.movers.StorageAccess;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Directory jobs on file:// SEs: the engine lists the source tree and copies it with its layout, filtered, within the
 * job's max_files; a bad directory entry is refused at submission, a tree that cannot be copied fails the job with why.
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class DirectoryJobTest extends EngineFixture {

    private static final Logger LOG = Logger.getLogger(DirectoryJobTest.class);

    private Path source;
    private Path destination;

    @BeforeEach
    void fileSes() throws Exception {
        source = Files.createDirectories(WithEngine.FILE_ROOT.resolve("dir-src"));
        destination = Files.createDirectories(WithEngine.FILE_ROOT.resolve("dir-dst"));
        register("DIR-SRC", "{\"site\":\"DIR-SITE\",\"baseUrls\":{\"file\":\"" + source.toUri() + "\"},\"access\":{\"open\":true}}");
        register("DIR-DST", "{\"site\":\"DIR-SITE\",\"baseUrls\":{\"file\":\"" + destination.toUri() + "\"},\"access\":{\"open\":true}}");
    }

    @Test
    void aTreeIsCopiedByteIdenticalWithItsLayoutAndOnlyWhatTheFiltersKeep() throws Exception {
        List<String> kept = List.of("a.root", "sub dir/b.root", "sub dir/ü ñ/c #1+?.root", "deep/1/2/3/d.root");
        for (String path : kept) {
            write(source.resolve("tree/" + path), 20_000);
        }
        write(source.resolve("tree/tmp/skipped.root"), 10);
        write(source.resolve("tree/notes.txt"), 10);
        Files.createSymbolicLink(source.resolve("tree/loop"), source.resolve("tree"));

        String id = submit(vo("atlas"), List.of(entry("tree/", "copy/", "\"include\":[\"*.root\"],\"exclude\":[\"tmp/*\"]")), "{}");
        assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(60), "FINISHED", "FAILED", "FINISHEDDIRTY"),
                files(vo("atlas"), id).prettify());

        for (String path : kept) {
            assertEquals(-1, Files.mismatch(source.resolve("tree/" + path), destination.resolve("copy/" + path)), path);
        }
        assertFalse(Files.exists(destination.resolve("copy/tmp")), "excluded");
        assertFalse(Files.exists(destination.resolve("copy/notes.txt")), "not included");
        assertFalse(Files.exists(destination.resolve("copy/loop")), "a link is not followed");
        JsonPath files = files(vo("atlas"), id);
        assertEquals(kept.size(), files.getList("file_id").size());
        assertTrue(files.getString("[0].dest_surl").startsWith(destination.toUri() + "copy/"), files.getString("[0].dest_surl"));
        assertTrue(files.getList("source_surl").contains(source.toUri() + "tree/sub%20dir/%C3%BC%20%C3%B1/c%20%231+%3F.root"), files.prettify());
        assertTrue(files.getList("dest_surl").contains(destination.toUri() + "copy/sub%20dir/%C3%BC%20%C3%B1/c%20%231+%3F.root"), files.prettify());
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().statusCode(200).body("job_state", equalTo("FINISHED"))
                .body("source_se", equalTo("DIR-SRC")).body("dest_se", equalTo("DIR-DST"));
    }

    /** XRootD's kXR_dirlist walk, the files streamed to a WebDAV SE. */
    @Test
    void aTreeOnAnXrootdSeIsCopiedToWebDav() throws Exception {
        Path pki = Files.createTempDirectory("ferry-dir-pki");
        try (XrootdServer xrootd = new XrootdServer(TestCertificates.create(pki), Map.of(), XrootdServer.Options.plain())) {
            register("XRD-DIR", "{\"site\":\"XRD-SITE\",\"baseUrls\":{\"root\":\"" + xrootd.rootUrl("root", "/store") + "\"},\"access\":{\"open\":true}}");
            List<String> paths = List.of("x.root", "run 1/y.root", "run 1/deeper/z.root");
            for (String path : paths) {
                write(xrootd.file("/store/xtree/" + path), 30_000);
            }
            String body = "{\"sources\":[\"" + xrootd.rootUrl("root", "/store/xtree/") + "\"],\"destinations\":[\"" + nginx.url("/se-b/xcopy/")
                    + "\"],\"recursive\":true}";
            String id = submit(vo("atlas"), List.of(body), "{}");
            assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(60), "FINISHED", "FAILED", "FINISHEDDIRTY"),
                    files(vo("atlas"), id).prettify());
            for (String path : paths) {
                assertEquals(-1, Files.mismatch(xrootd.file("/store/xtree/" + path), nginx.file("/se-b/xcopy/" + path)), path);
            }
        } finally {
            DirectoryTrees.delete(pki);
        }
    }

    /** WebDAV's PROPFIND walk (XRootD's HTTP plugin: the test nginx answers no PROPFIND), the files streamed to nginx. */
    @Test
    void aTreeOnAWebDavSeIsCopiedToAnother() throws Exception {
        Path pki = Files.createTempDirectory("ferry-dir-pki");
        try (XrootdServer dav = new XrootdServer(TestCertificates.create(pki), Map.of(), XrootdServer.Options.plain())) {
            register("DAV-DIR", "{\"site\":\"DAV-SITE\",\"baseUrls\":{\"http\":\"" + dav.httpUrl("/store") + "\"},\"access\":{\"open\":true}}");
            List<String> paths = List.of("w.root", "run 2/v ü.root", "run 2/deeper/u.root");
            for (String path : paths) {
                write(dav.file("/store/wtree/" + path), 25_000);
            }
            String body = "{\"sources\":[\"" + dav.httpUrl("/store/wtree/") + "\"],\"destinations\":[\"" + nginx.url("/se-b/wcopy/")
                    + "\"],\"recursive\":true}";
            String id = submit(vo("atlas"), List.of(body), "{}");
            assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(60), "FINISHED", "FAILED", "FINISHEDDIRTY"),
                    files(vo("atlas"), id).prettify());
            for (String path : paths) {
                assertEquals(-1, Files.mismatch(dav.file("/store/wtree/" + path), nginx.file("/se-b/wcopy/" + path)), path);
            }
        } finally {
            DirectoryTrees.delete(pki);
        }
    }

    /** S3's ListObjectsV2 with the SE's configured account (s3proxy), the objects pulled to nginx. */
    @Test
    void aPrefixOnAnS3SeIsCopiedToWebDav() throws Exception {
        try (S3Server s3 = new S3Server("dirs")) {
            register("DIR-S3", "{\"site\":\"S3-SITE\",\"baseUrls\":{\"s3\":\"" + s3.url("/dirs") + "\"},\"access\":{\"open\":true}}");
            S3Access access = new S3Access(Duration.ofSeconds(30));
            S3Keys keys = new S3Keys(S3Server.IDENTITY, S3Server.CREDENTIAL);
            List<String> keysBelow = List.of("s.root", "run%203/t.root", "run%203/deeper/r.root");
            byte[] data = new byte[12_345];
            new Random(5).nextBytes(data);
            for (String key : keysBelow) {
                try (StorageAccess.Upload up = access.write(URI.create(s3.url("/dirs/prefix/" + key)), data.length, keys, "transfer")) {
                    up.write(ByteBuffer.wrap(data));
                    up.commit();
                }
            }
            String body = "{\"sources\":[\"" + s3.url("/dirs/prefix/") + "\"],\"destinations\":[\"" + nginx.url("/se-b/s3copy/")
                    + "\"],\"recursive\":true}";
            String id = submit(vo("atlas"), List.of(body), "{}");
            assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(60), "FINISHED", "FAILED", "FINISHEDDIRTY"),
                    files(vo("atlas"), id).prettify());
            for (String path : List.of("s.root", "run 3/t.root", "run 3/deeper/r.root")) {
                assertArrayEquals(data, Files.readAllBytes(nginx.file("/se-b/s3copy/" + path)), path);
            }
        }
    }

    @Test
    void aTreeOverMaxFilesFailsTheJobWithItsCountAndCopiesNothing() throws Exception {
        for (int i = 0; i < 5; i++) {
            write(source.resolve("big/f" + i), 10);
        }
        String id = submit(vo("atlas"), List.of(entry("big/", "big-copy/", null)), "{\"max_files\":3}");
        assertEquals("FAILED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED", "FINISHED"));
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then()
                .body("reason", containsString("has 5 files, more than max_files 3"));
        assertEquals(0, files(vo("atlas"), id).getList("file_id").size());
        assertFalse(Files.exists(destination.resolve("big-copy")));
    }

    @Test
    void aMissingSourceDirectoryFailsTheJobWithTheReason() {
        String id = submit(vo("atlas"), List.of(entry("nowhere/", "out/", null)), "{}");
        assertEquals("FAILED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED", "FINISHED"));
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().body("reason", containsString("SOURCE_NOT_FOUND"));
    }

    @Test
    void aNameNoStorageUrlCanCarryFailsTheJobNamingItUnlessExcluded() throws Exception {
        write(source.resolve("percent/ok.dat"), 10);
        write(source.resolve("percent/100%.dat"), 10);
        String id = submit(vo("atlas"), List.of(entry("percent/", "percent-copy/", null)), "{}");
        assertEquals("FAILED", awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED", "FINISHED"));
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().body("reason", containsString("'100%.dat'"));
        String excluded = submit(vo("atlas"), List.of(entry("percent/", "percent-copy/", "\"exclude\":[\"*%*\"]")), "{}");
        assertEquals("FINISHED", awaitJob(vo("atlas"), excluded, Duration.ofSeconds(30), "FAILED", "FINISHED"));
        assertTrue(Files.exists(destination.resolve("percent-copy/ok.dat")));
    }

    /**
     * A job waiting for its listing (its request held by a replica that is still at it) has no file: the settler
     * leaves it SUBMITTED rather than calling it FINISHED, and a cancel makes it CANCELED.
     */
    @Test
    void aJobWaitingForItsListingStaysSubmittedAndIsCancelled() throws Exception {
        write(source.resolve("held/f"), 10);
        String listed = submit(vo("atlas"), List.of(entry("held/", "held-copy/", null)), "{}");
        awaitJob(vo("atlas"), listed, Duration.ofSeconds(30), "FINISHED");
        String id = java.util.UUID.randomUUID().toString();
        // a copy of that job's row under a new id, as if just submitted, its request held by another replica
        pool.withTransaction(c -> c.query("CREATE TEMP TABLE held_job ON COMMIT DROP AS SELECT * FROM job WHERE job_id = '" + listed + "'").execute()
                .chain(x -> c.query("UPDATE held_job SET job_id = '" + id + "', state = 'SUBMITTED', finished_at = NULL, reason = NULL").execute())
                .chain(x -> c.query("INSERT INTO job SELECT * FROM held_job").execute())
                .chain(x -> c.query("INSERT INTO directory_request (job_id, source_url, dest_url, source_se, dest_se, max_files, activity, "
                        + "lease_owner, lease_until) VALUES ('" + id + "', 'file:///x/', 'file:///y/', 'DIR-SRC', 'DIR-DST', 10, 'default', "
                        + "'another-replica', now() + interval '1 hour')").execute())).await().atMost(Duration.ofSeconds(10));
        Thread.sleep(1500);
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().statusCode(200).body("job_state", equalTo("SUBMITTED"));
        given().auth().oauth2(vo("atlas")).delete("/jobs/" + id).then().statusCode(200);
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id).then().body("job_state", equalTo("CANCELED"));
        assertEquals(0, files(vo("atlas"), id).getList("file_id").size());
    }

    @Test
    void aBadDirectoryEntryIsRefusedNamingTheFieldAndNothingIsStored() throws Exception {
        long jobs = count("SELECT count(*) FROM job");
        post(vo("atlas"), entry("tree", "copy/", null), "{}").statusCode(400).body("errors.field", hasItem("files[0].sources"));
        post(vo("atlas"), entry("tree/", "copy", null), "{}").statusCode(400).body("errors.field", hasItem("files[0].destinations"));
        post(vo("atlas"), entry("tree/", "copy/", "\"include\":[\"[a\"]"), "{}").statusCode(400).body("errors.field", hasItem("files[0].include[0]"));
        post(vo("atlas"), entry("tree/", "copy/", "\"exclude\":\"tmp\""), "{}").statusCode(400).body("errors.field", hasItem("files[0].exclude"));
        post(vo("atlas"), entry("tree/", "copy/", "\"checksum\":\"ADLER32:00000001\""), "{}").statusCode(400)
                .body("errors.field", hasItem("files[0].checksum"));
        post(vo("atlas"), entry("tree/", "copy/", null), "{\"max_files\":0}").statusCode(400).body("errors.field", hasItem("params.max_files"));
        post(vo("atlas"), entry("tree/", "copy/", null), "{\"max_files\":10001}").statusCode(400).body("errors.field", hasItem("params.max_files"));
        post(vo("atlas"), entry("tree/", "copy/", null) + "," + entry("t2/", "c2/", null), "{}").statusCode(400)
                .body("errors.field", hasItem("files"));
        post(vo("atlas"), "{\"sources\":[\"" + source.toUri() + "f\"],\"destinations\":[\"" + destination.toUri() + "f\"],\"include\":[\"*\"]}", "{}")
                .statusCode(400).body("errors.field", hasItem("files[0].include"));
        post(vo("atlas"), "{\"sources\":[\"file:///nowhere/dir/\"],\"destinations\":[\"" + destination.toUri() + "x/\"],\"recursive\":true}", "{}")
                .statusCode(422).body("code", equalTo("UNREGISTERED_ENDPOINT"));
        Files.createDirectories(WithEngine.FILE_ROOT.resolve("dir-cms"));
        register("DIR-CMS", "{\"site\":\"DIR-SITE\",\"baseUrls\":{\"file\":\"" + WithEngine.FILE_ROOT.resolve("dir-cms").toUri()
                + "\"},\"access\":{\"rules\":[{\"vo\":\"cms\",\"read\":true,\"write\":true}]}}");
        post(vo("atlas"), "{\"sources\":[\"" + WithEngine.FILE_ROOT.resolve("dir-cms").toUri() + "tree/\"],\"destinations\":[\""
                + destination.toUri() + "x/\"],\"recursive\":true}", "{}").log().ifValidationFails().statusCode(403).body("code", equalTo("STORAGE_ACCESS_DENIED"));
        assertEquals(jobs, count("SELECT count(*) FROM job"));
    }

    /**
     * The measure: a directory job of 1,000 small files with {@code sync_level checksum}, from submission to
     * FINISHED, then the same job again: every file is found in place (both sides read and summed: file:// keeps no
     * checksums), none is written.
     */
    @Test
    void aDirectoryOfAThousandFilesIsCopiedAndASecondSyncRunCopiesNothing() throws Exception {
        for (int d = 0; d < 10; d++) {
            for (int i = 0; i < 100; i++) {
                write(source.resolve("thousand/d" + d + "/f" + i), 1_000);
            }
        }
        long started = System.nanoTime();
        String id = submit(vo("atlas"), List.of(entry("thousand/", "thousand-copy/", null)), "{\"sync_level\":\"checksum\"}");
        assertEquals("FINISHED", awaitJob(vo("atlas"), id, Duration.ofSeconds(180), "FINISHED", "FAILED", "FINISHEDDIRTY"));
        long firstMs = (System.nanoTime() - started) / 1_000_000;
        Path probe = destination.resolve("thousand-copy/d7/f42");
        FileTime written = Files.getLastModifiedTime(probe);
        try (Stream<Path> copied = Files.walk(destination.resolve("thousand-copy"))) {
            assertEquals(1000, copied.filter(Files::isRegularFile).count());
        }
        started = System.nanoTime();
        String again = submit(vo("atlas"), List.of(entry("thousand/", "thousand-copy/", null)), "{\"sync_level\":\"checksum\"}");
        assertEquals("FINISHED", awaitJob(vo("atlas"), again, Duration.ofSeconds(180), "FINISHED", "FAILED", "FINISHEDDIRTY"));
        long secondMs = (System.nanoTime() - started) / 1_000_000;
        LOG.infof("directory job of 1000 files, sync_level checksum: first run %d ms, second run %d ms", firstMs, secondMs);
        List<String> reasons = files(vo("atlas"), again).getList("reason");
        assertEquals(1000, reasons.size());
        assertTrue(reasons.stream().allMatch(r -> r != null && r.startsWith("already at the destination (sync_level checksum: adler32 ")),
                reasons.stream().filter(r -> r == null || !r.startsWith("already")).limit(3).toList().toString());
        assertEquals(written, Files.getLastModifiedTime(probe), "the second run wrote a file that was in place");
    }

    private String entry(String from, String to, String more) {
        return "{\"sources\":[\"" + source.toUri() + from + "\"],\"destinations\":[\"" + destination.toUri() + to + "\"],\"recursive\":true"
                + (more == null ? "" : "," + more) + "}";
    }

    private static void write(Path file, int size) throws Exception {
        Files.createDirectories(file.getParent());
        byte[] data = new byte[size];
        new Random(file.hashCode()).nextBytes(data);
        Files.write(file, data);
    }
}
