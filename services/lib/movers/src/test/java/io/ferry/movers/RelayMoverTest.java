package io.ferry.movers;

import io.ferry.dev.NginxWebDav;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The streamed copy between protocols, with WebDAV on both sides (a real nginx): what every mixed link relies on —
 * bytes identical at every size (one buffer, read-ahead), checksums checked, an existing destination kept, a failed
 * copy leaving nothing behind.
 */
class RelayMoverTest {

    static NginxWebDav nginx;
    static final HttpMover HTTP = new HttpMover(Duration.ofSeconds(30), 64L << 20);
    static final RelayMover RELAY = HTTP.relay(HTTP.webDav(), HTTP.webDav());

    @BeforeAll
    static void start() throws Exception {
        nginx = new NginxWebDav();
    }

    @AfterAll
    static void stop() throws Exception {
        nginx.close();
    }

    private static CopyRequest request(String from, String to, long size, String adler, String verify, boolean overwrite) {
        return new CopyRequest(URI.create(nginx.url(from)), URI.create(nginx.url(to)), size, adler, verify, overwrite, 1,
                URI.create(nginx.url("/se-b")), false, URI.create(nginx.url("/se-a")));
    }

    @Test
    void copiesSmallAndLargeFilesByteIdenticalWithTheirChecksums() throws Exception {
        for (long size : new long[] {0, 1, 300_000, 9_000_001}) {
            String adler = HttpMoverTest.write(nginx.file("/se-a/relay/f" + size), size, size);
            CopyResult result = RELAY.copy(request("/se-a/relay/f" + size, "/se-b/relay/deep/f" + size, size, adler, "both", false));
            assertEquals(size, result.bytes());
            assertEquals(adler, result.checksum());
            assertArrayEquals(Files.readAllBytes(nginx.file("/se-a/relay/f" + size)), Files.readAllBytes(nginx.file("/se-b/relay/deep/f" + size)));
        }
    }

    @Test
    void statsTellModificationTimesAndTheCheapDestinationStatReadsNothing() throws Exception {
        String adler = HttpMoverTest.write(nginx.file("/se-a/relay/when"), 2000, 11);
        HttpMoverTest.write(nginx.file("/se-b/relay/when"), 2000, 11);
        java.time.Instant then = java.time.Instant.parse("2026-01-02T03:04:05Z");
        Files.setLastModifiedTime(nginx.file("/se-a/relay/when"), java.nio.file.attribute.FileTime.from(then));
        CopyRequest req = request("/se-a/relay/when", "/se-b/relay/when", 2000, adler, "both", false);
        assertEquals(then, RELAY.stat(req).mtime(), "WebDAV's Last-Modified");
        assertEquals(then, HTTP.stat(req).mtime());
        int before = nginx.requests().size();
        SourceStat cheap = RELAY.destinationStat(req);
        assertEquals(2000, cheap.size());
        assertEquals(null, cheap.checksum(), "nginx offers no digest, and the cheap stat reads nothing");
        assertEquals(Files.getLastModifiedTime(nginx.file("/se-b/relay/when")).toInstant().getEpochSecond(), cheap.mtime().getEpochSecond());
        assertEquals(null, HTTP.destinationStat(req).checksum());
        assertFalse(nginx.requests().subList(before, nginx.requests().size()).stream().anyMatch(r -> r.startsWith("GET")),
                "HEADs only: " + nginx.requests());
        SourceStat read = RELAY.statDestination(req);
        assertEquals(adler, read.checksum());
        assertEquals(cheap.mtime(), read.mtime());
    }

    @Test
    void aWrongChecksumFailsTheCopyAndRemovesWhatItWrote() throws Exception {
        HttpMoverTest.write(nginx.file("/se-a/relay/bad"), 5_000_000, 7);
        MoverException e = assertThrows(MoverException.class, () -> RELAY.copy(request("/se-a/relay/bad", "/se-b/relay/bad", 5_000_000, "00000001", "both", false)));
        assertEquals(MoverException.Code.CHECKSUM_MISMATCH, e.code());
        assertFalse(Files.exists(nginx.file("/se-b/relay/bad")));
    }

    @Test
    void anExistingDestinationIsKeptWithoutOverwriteAndReplacedWithIt() throws Exception {
        String adler = HttpMoverTest.write(nginx.file("/se-a/relay/x"), 1000, 3);
        Files.createDirectories(nginx.file("/se-b/relay/keep").getParent());
        Files.writeString(nginx.file("/se-b/relay/keep"), "theirs");
        MoverException e = assertThrows(MoverException.class, () -> RELAY.copy(request("/se-a/relay/x", "/se-b/relay/keep", 1000, adler, "both", false)));
        assertEquals(MoverException.Code.DEST_EXISTS, e.code());
        assertEquals("theirs", Files.readString(nginx.file("/se-b/relay/keep")));
        RELAY.copy(request("/se-a/relay/x", "/se-b/relay/keep", 1000, adler, "both", true));
        assertEquals(1000, Files.size(nginx.file("/se-b/relay/keep")));
    }

    @Test
    void aMissingSourceIsSourceNotFoundAndASizeTheJobGotWrongIsRefusedBeforeWriting() throws Exception {
        MoverException missing = assertThrows(MoverException.class, () -> RELAY.copy(request("/se-a/relay/none", "/se-b/relay/none", 1L, null, "none", false)));
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, missing.code());
        HttpMoverTest.write(nginx.file("/se-a/relay/sized"), 4096, 5);
        MoverException size = assertThrows(MoverException.class, () -> RELAY.copy(request("/se-a/relay/sized", "/se-b/relay/sized", 4000L, null, "none", false)));
        assertEquals(MoverException.Code.SIZE_MISMATCH, size.code());
        assertFalse(Files.exists(nginx.file("/se-b/relay/sized")));
    }

    @Test
    void aStoppedCopyEndsWithItsReasonAndLeavesNoFile() throws Exception {
        long size = 64L << 20;
        HttpMoverTest.write(nginx.file("/se-a/relay/big"), size, 11);
        CopyRequest req = request("/se-a/relay/big", "/se-b/relay/big", size, null, "none", false);
        SourceStat stat = RELAY.stat(req);
        RELAY.prepareDestination(req);
        TransferProgress progress = TransferProgress.unwatched();
        progress.abort(MoverException.Code.CANCELED, "the job was cancelled");
        MoverException e = assertThrows(MoverException.class, () -> RELAY.transfer(req, stat, progress));
        assertEquals(MoverException.Code.CANCELED, e.code());
        assertFalse(Files.exists(nginx.file("/se-b/relay/big")), Arrays.toString(nginx.file("/se-b/relay").toFile().list()));
    }
}
