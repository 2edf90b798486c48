package io.ferry.scheduler.storage;

import com.sun.net.httpserver.HttpServer;
import io.ferry.dev.FerryTestResource;
import io.ferry.scheduler.EngineFixture;
import io.quarkus.test.common.TestResourceScope;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The storage boundary at copy time: encoded paths never leave the SE, a file SE stays in its own base, a replica that
 * escapes its SE is not used, and rights or SEs changed after submission apply before any byte is written.
 */
@QuarkusTest
@TestProfile(EngineFixture.WithEngine.class)
@WithTestResource(value = FerryTestResource.class, scope = TestResourceScope.GLOBAL)
class StorageBoundaryTest extends EngineFixture {

    @Test
    void encodedDotSegmentsAndSeparatorsInAJobNeverLeaveTheSe() throws Exception {
        String adler = write("/se-a/escape/f1", 10_000, 91);
        Files.writeString(nginx.file("/secret"), "not for transfer");
        // nginx decodes before it resolves dot-segments: each of these names /outside/x on the server
        for (String path : new String[]{"/se-b/%2E%2e/outside/x", "/se-b/..%2foutside/x", "/se-b/%2e./outside/x", "/se-b/.%2e/outside/x",
                "/se-b/a%2F..%2F..%2Foutside/x", "/se-b/..%5Coutside/x", "/se-b/outside%00x", "/se-b/..;/outside/x"}) {
            post(vo("atlas"), file("/se-a/escape/f1", path, adler), "{}").statusCode(422).contentType("application/problem+json")
                    .body("code", equalTo("INVALID_STORAGE_URL")).body("errors.field", Matchers.hasItem("files[0].destinations[0]"));
        }
        for (String path : new String[]{"/se-a/%2E%2e/secret", "/se-a/.%2e/secret", "/se-a/%2e./secret", "/se-a/..%2fsecret"}) {
            post(vo("atlas"), file(path, "/se-b/escape/stolen", null), "{}").statusCode(422)
                    .body("code", equalTo("INVALID_STORAGE_URL")).body("errors.field", Matchers.hasItem("files[0].sources[0]"));
        }
        Thread.sleep(1500);
        assertFalse(Files.exists(nginx.file("/outside")), "a job wrote outside every SE");
        assertFalse(Files.exists(nginx.file("/se-b/escape/stolen")), "a job read outside every SE");
    }

    @Test
    void aFileSeIsConfinedToItsOwnBaseDirectoryNotOnlyToTheEngineRoots() throws Exception {
        Path root = WithEngine.FILE_ROOT;
        Path seA = Files.createDirectories(root.resolve("fse-a"));
        Path seB = Files.createDirectories(root.resolve("fse-b"));
        Path other = Files.createDirectories(root.resolve("other"));
        register("FILE-A", "{\"site\":\"FILE-SITE\",\"baseUrls\":{\"file\":\"" + seA.toUri() + "\"},\"access\":{\"open\":true}}");
        register("FILE-B", "{\"site\":\"FILE-SITE\",\"baseUrls\":{\"file\":\"" + seB.toUri() + "\"},\"access\":{\"open\":true}}");
        Files.writeString(seA.resolve("f1"), "a file of FILE-A");
        Files.writeString(other.resolve("secret"), "a file in the engine's roots but of no SE");
        String source = seA.resolve("f1").toUri().toString();
        for (String evil : new String[]{"/.%2e/other/x", "/%2E%2e/other/x", "/..%2Fother/x", "/%2e./other/x"}) {
            post(vo("atlas"), "{\"sources\":[\"" + source + "\"],\"destinations\":[\"file://" + seB + evil + "\"]}", "{}").statusCode(422)
                    .body("code", equalTo("INVALID_STORAGE_URL")).body("errors.field", Matchers.hasItem("files[0].destinations[0]"));
        }
        // links inside an SE's directory that lead elsewhere in the engine's roots: the mover refuses them
        Files.createSymbolicLink(seB.resolve("link"), other);
        Files.createSymbolicLink(seA.resolve("peek"), other.resolve("secret"));
        String out = submit(vo("atlas"), List.of("{\"sources\":[\"" + source + "\"],\"destinations\":[\"file://" + seB + "/link/x\"]}"),
                "{\"retry\":2}");
        String in = submit(vo("atlas"), List.of("{\"sources\":[\"" + seA.resolve("peek").toUri() + "\"],\"destinations\":[\"file://" + seB
                + "/peeked\"]}"), "{\"retry\":2}");
        for (String id : List.of(out, in)) {
            awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED", "FINISHED");
            JsonPath f = files(vo("atlas"), id);
            assertEquals("PERMISSION_DENIED", f.getString("[0].error_code"), f.prettify());
        }
        assertFalse(Files.exists(other.resolve("x")), "a copy went through a link out of its SE");
        assertFalse(Files.exists(seB.resolve("peeked")), "a copy read through a link out of its SE");
    }

    @Test
    void aResolvedReplicaThatEscapesItsSeIsNotUsed() throws Exception {
        Files.writeString(nginx.file("/not-a-replica"), "outside every SE");
        replicaTurls.add(nginx.url("/se-a/%2e%2E/not-a-replica"));
        try {
            post(vo("atlas"), "{\"sources\":[\"handle:20.500.1/escape\"],\"destinations\":[\"" + nginx.url("/se-b/resolved/f1") + "\"]}", "{}")
                    .statusCode(422).contentType("application/problem+json").body("code", equalTo("UNRESOLVED_SOURCE"))
                    .body("errors.field", Matchers.hasItem("files[0].sources[0]"));
        } finally {
            replicaTurls.clear();
        }
        // a handle: source is asked for as a handle, never by its bare text (which a bound logical name could match)
        assertTrue(resolverQueries.stream().anyMatch(q -> q.contains("id=handle:20.500.1/escape")), resolverQueries.toString());
        Thread.sleep(1500);
        assertFalse(Files.exists(nginx.file("/se-b/resolved/f1")));
    }

    @Test
    void rightsRemovedAfterSubmissionFailTheFileForGoodBeforeAnyByteIsWritten() throws Exception {
        // the file waits on "tape" until the test lets it go, so the rights change lands between submission and copy
        try (HeldOnTape tape = new HeldOnTape("/se-a/tape-r/f1")) {
            register("NGX-TAPE-R", "{\"site\":\"TAPE-SITE\",\"needsPrepare\":true,\"baseUrls\":{\"http\":\"" + nginx.url("/se-a/tape-r")
                    + "\",\"tape\":\"" + tape.url() + "\"},\"access\":{\"open\":true}}");
            String rights = "{\"site\":\"RIGHTS-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url("/se-b/rights") + "\"},"
                    + "\"access\":{\"rules\":[{\"vo\":\"%s\",\"read\":true,\"write\":true}]}}";
            register("NGX-RIGHTS", rights.formatted("atlas"));
            Files.createDirectories(nginx.file("/se-b/rights"));
            write("/se-a/tape-r/f1", 50_000, 12);
            String id = submit(vo("atlas"), List.of(file("/se-a/tape-r/f1", "/se-b/rights/f1", null)), "{\"retry\":3,\"retry_delay\":0}");
            awaitJob(vo("atlas"), id, Duration.ofSeconds(20), "STAGING");
            register("NGX-RIGHTS", rights.formatted("cms"));
            releaseAndExpectRefusedForGood(tape, id, "atlas", "/se-b/rights/f1", "a VO without write rights wrote");
        }
    }

    @Test
    void aClosedSeRegisteredAtANestedBaseAfterSubmissionTakesTheQueuedFileOverBeforeAnyByteIsWritten() throws Exception {
        // the file waits on "tape" until the test lets it go, so the new SE lands between submission and copy
        try (HeldOnTape tape = new HeldOnTape("/se-a/tape-n/f1")) {
            register("NGX-TAPE-N", "{\"site\":\"TAPE-SITE\",\"needsPrepare\":true,\"baseUrls\":{\"http\":\"" + nginx.url("/se-a/tape-n")
                    + "\",\"tape\":\"" + tape.url() + "\"},\"access\":{\"open\":true}}");
            register("NGX-NEST-OPEN", "{\"site\":\"NEST-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url("/se-b/nest") + "\"},\"access\":{\"open\":true}}");
            Files.createDirectories(nginx.file("/se-b/nest/closed"));
            write("/se-a/tape-n/f1", 50_000, 13);
            String id = submit(vo("atlas"), List.of(file("/se-a/tape-n/f1", "/se-b/nest/closed/f1", null)), "{\"retry\":3,\"retry_delay\":0}");
            awaitJob(vo("atlas"), id, Duration.ofSeconds(20), "STAGING");
            // the operator protects a path below the open SE with a closed one
            register("NGX-NEST-CLOSED", "{\"site\":\"NEST-SITE\",\"baseUrls\":{\"http\":\"" + nginx.url("/se-b/nest/closed") + "\"}}");
            releaseAndExpectRefusedForGood(tape, id, "NGX-NEST-CLOSED", "/se-b/nest/closed/f1",
                    "a file queued under the open SE was written below the closed one");
        }
    }

    /**
     * Lets the held file go once the engine's SE catalogue (at most a second old) has the test's change, and checks
     * that the file then fails for good with PERMISSION_DENIED (reason naming {@code reasonNames}), without a retry and
     * without a byte at {@code destination}.
     */
    private void releaseAndExpectRefusedForGood(HeldOnTape tape, String id, String reasonNames, String destination,
                                                String writtenMessage) throws Exception {
        Thread.sleep(1500);
        tape.release();
        awaitJob(vo("atlas"), id, Duration.ofSeconds(30), "FAILED", "FINISHED");
        JsonPath f = files(vo("atlas"), id);
        assertEquals("PERMISSION_DENIED", f.getString("[0].error_code"), f.prettify());
        assertTrue(f.getString("[0].reason").contains(reasonNames), f.getString("[0].reason"));
        given().auth().oauth2(vo("atlas")).get("/jobs/" + id + "/files/" + f.getLong("[0].file_id") + "/retries").then().statusCode(200)
                .body("$", hasSize(0));
        assertFalse(Files.exists(nginx.file(destination)), writtenMessage);
    }

    /**
     * A stand-in WLCG Tape REST endpoint holding one file on tape until {@link #release()}: a test changes the SE
     * catalogue while the file is queued, between its submission and its copy.
     */
    static final class HeldOnTape implements AutoCloseable {
        private final AtomicBoolean onDisk = new AtomicBoolean();
        private final HttpServer server;

        HeldOnTape(String path) throws IOException {
            server = HttpServer.create(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/api/v1/stage", exchange -> {
                exchange.getRequestBody().readAllBytes();
                boolean post = exchange.getRequestMethod().equals("POST");
                byte[] body = (post ? "{\"requestId\":\"held:" + path + "\"}"
                        : "{\"id\":\"held:" + path + "\",\"files\":[{\"path\":\"" + path + "\",\"onDisk\":" + onDisk.get() + "}]}").getBytes();
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(post ? 201 : 200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
        }

        String url() {
            return "http://127.0.0.1:" + server.getAddress().getPort() + "/api/v1";
        }

        void release() {
            onDisk.set(true);
        }

        @Override
        public void close() {
            server.stop(0);
        }
    }
}
