package io.ferry.movers.xrootd;

import io.ferry.dev.DirectoryTrees;
import io.ferry.dev.TestCertificates;
import io.ferry.dev.XrootdServer;
import io.ferry.movers.ChecksumAlgorithm;
import io.ferry.movers.MoverException;
import io.ferry.movers.TlsSockets;
import io.ferry.movers.TransferProgress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** root → root third-party copy between two real xrootd servers: the destination pulls with its own xrdcp. */
class XrootdThirdPartyCopyTest {

    static Path dir;
    static XrootdServer source;
    static XrootdServer destination;
    static XrootdAccess access;
    static XrootdThirdPartyCopy tpc;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("ferry-xrootd-tpc");
        TestCertificates pki = TestCertificates.create(dir);
        source = new XrootdServer(pki, Map.of(), XrootdServer.Options.plain().withTpc());
        destination = new XrootdServer(pki, Map.of(), XrootdServer.Options.plain().withTpc());
        access = new XrootdAccess(Duration.ofSeconds(30), TlsSockets.storageTls(Optional.of(pki.caDirectory()), Optional.empty(), Optional.empty()));
        tpc = new XrootdThirdPartyCopy(access, Duration.ofMinutes(2));
    }

    @AfterAll
    static void stop() throws Exception {
        if (access != null) {
            access.close();
        }
        for (XrootdServer s : new XrootdServer[] {source, destination}) {
            if (s != null) {
                s.close();
            }
        }
        DirectoryTrees.delete(dir);
    }

    @Test
    void theDestinationPullsAByteIdenticalFile() throws Exception {
        long size = (20L << 20) + 11;
        String adler = XrootdAccessTest.write(source.file("/tpc/src/f1"), size, 7);
        URI from = URI.create(source.rootUrl("root", "/tpc/src/f1"));
        URI to = URI.create(destination.rootUrl("root", "/tpc/dst/f1"));
        XrootdThirdPartyCopy.Result r;
        try {
            r = tpc.copy(from, to, false, ChecksumAlgorithm.ADLER32, null, null);
        } catch (MoverException e) {
            throw new AssertionError(e.getMessage() + "\nsource log:\n" + source.log() + "\ndestination log:\n" + destination.log(), e);
        }
        assertEquals(size, r.size());
        assertEquals(adler, r.checksum());
        assertEquals(-1, Files.mismatch(source.file("/tpc/src/f1"), destination.file("/tpc/dst/f1")));

        MoverException again = assertThrows(MoverException.class, () -> tpc.copy(from, to, false, ChecksumAlgorithm.ADLER32, null, null));
        assertEquals(MoverException.Code.DEST_EXISTS, again.code());
        assertEquals(size, tpc.copy(from, to, true, null, null, null).size(), "overwrite replaces it");
    }

    @Test
    void aMissingSourceFailsAndLeavesNoDestination() {
        URI from = URI.create(source.rootUrl("root", "/tpc/src/none"));
        URI to = URI.create(destination.rootUrl("root", "/tpc/dst/none"));
        MoverException e = assertThrows(MoverException.class, () -> tpc.copy(from, to, false, ChecksumAlgorithm.ADLER32, null, null));
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, e.code());
        assertFalse(Files.exists(destination.file("/tpc/dst/none")));
    }

    @Test
    void aSourcePathThatWouldBreakTheOpaquePartIsRefused() throws Exception {
        XrootdAccessTest.write(source.file("/tpc/src/a&tpc.src=evil"), 3, 1);
        URI from = URI.create("root://localhost:" + source.rootPort + "/tpc/src/a%26tpc.src=evil");
        URI to = URI.create(destination.rootUrl("root", "/tpc/dst/x"));
        MoverException e = assertThrows(MoverException.class, () -> tpc.copy(from, to, false, null, null, null));
        assertEquals(MoverException.Code.UNSUPPORTED_URL, e.code());
        assertTrue(destination.log().isEmpty() || !destination.log().contains("evil"));
    }

    @Test
    void progressCountsTheDestinationsBytesAndAStoppedCopyDoesNotStart() throws Exception {
        long size = (12L << 20) + 3;
        XrootdAccessTest.write(source.file("/tpc/src/p"), size, 8);
        URI from = URI.create(source.rootUrl("root", "/tpc/src/p"));
        TransferProgress progress = TransferProgress.unwatched();
        XrootdThirdPartyCopy watched = new XrootdThirdPartyCopy(access, Duration.ofMinutes(2), Duration.ofMillis(20));
        watched.copy(from, URI.create(destination.rootUrl("root", "/tpc/dst/p")), false, null, null, null, progress);
        assertEquals(size, progress.bytes());

        TransferProgress stopped = TransferProgress.unwatched();
        stopped.abort(MoverException.Code.CANCELED, "cancelled by the user");
        MoverException e = assertThrows(MoverException.class,
                () -> watched.copy(from, URI.create(destination.rootUrl("root", "/tpc/dst/q")), false, null, null, null, stopped));
        assertEquals(MoverException.Code.CANCELED, e.code());
        assertFalse(Files.exists(destination.file("/tpc/dst/q")));
    }
}
