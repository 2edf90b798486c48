package io.ferry.movers;

import io.ferry.dev.NginxWebDav;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Copies whose job names MD5: computed while streaming (one stream or Range streams), compared, read back from the destination. */
class Md5CopyTest {

    static NginxWebDav nginx;
    static final HttpMover MOVER = new HttpMover(Duration.ofSeconds(60), 128L << 20);

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() throws Exception {
        nginx = new NginxWebDav();
    }

    @AfterAll
    static void stop() throws Exception {
        nginx.close();
    }

    static String md5(Path file) throws Exception {
        MessageDigest md5 = MessageDigest.getInstance("MD5");
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                md5.update(buf, 0, n);
            }
        }
        return HexFormat.of().formatHex(md5.digest());
    }

    static CopyRequest md5Request(URI source, URI dest, Long size, String expected, String verify, int streams, URI destBase) {
        return new CopyRequest(source, dest, size, expected, verify, false, streams, destBase, false, null, null, ChecksumAlgorithm.MD5);
    }

    @Test
    void rangeStreamsReassembleTheMd5OfTheWholeFile() throws Exception {
        long size = (80L << 20) + 7;
        HttpMoverTest.write(nginx.file("/se-a/md5/big.bin"), size, 46);
        String md5 = md5(nginx.file("/se-a/md5/big.bin"));
        CopyResult r = MOVER.copy(md5Request(URI.create(nginx.url("/se-a/md5/big.bin")), URI.create(nginx.url("/se-b/md5/big.bin")), size,
                md5.toUpperCase(), "both", 4, URI.create(nginx.url("/se-b"))));
        assertEquals(4, r.streams());
        assertEquals(md5, r.checksum());
        assertEquals(-1, Files.mismatch(nginx.file("/se-a/md5/big.bin"), nginx.file("/se-b/md5/big.bin")));
        Files.delete(nginx.file("/se-a/md5/big.bin"));
        Files.delete(nginx.file("/se-b/md5/big.bin"));
    }

    @Test
    void aWrongMd5FailsTheCopyAndLeavesNoDestination() throws Exception {
        HttpMoverTest.write(nginx.file("/se-a/md5/f1"), 300_000, 47);
        String md5 = md5(nginx.file("/se-a/md5/f1"));
        URI source = URI.create(nginx.url("/se-a/md5/f1"));
        MoverException wrong = assertThrows(MoverException.class, () -> MOVER.copy(md5Request(source, URI.create(nginx.url("/se-b/md5/f1")),
                300_000L, "0".repeat(32), "source", 1, URI.create(nginx.url("/se-b")))));
        assertEquals(MoverException.Code.CHECKSUM_MISMATCH, wrong.code());
        assertEquals("Source and user-defined MD5 checksum do not match (" + md5 + " != " + "0".repeat(32) + ")", wrong.getMessage(),
                "FTS3's words, which Rucio sites' suspicious_pattern match");
        assertFalse(Files.exists(nginx.file("/se-b/md5/f1")), "a wrong copy is removed");

        CopyResult noValue = MOVER.copy(md5Request(source, URI.create(nginx.url("/se-b/md5/f1")), null, null, "both", 1,
                URI.create(nginx.url("/se-b"))));
        assertEquals(md5, noValue.checksum(), "the algorithm alone: computed and compared with the destination's");
        SourceStat there = MOVER.statDestination(md5Request(source, URI.create(nginx.url("/se-b/md5/f1")), null, null, "none", 1,
                URI.create(nginx.url("/se-b"))));
        assertEquals(md5, there.checksum(), "nginx offers no digest: the destination is read and summed with MD5");
    }

    @Test
    void theFileMoverComparesMd5Too() throws Exception {
        Path seA = Files.createDirectories(tmp.resolve("se-a"));
        Path seB = Files.createDirectories(tmp.resolve("se-b"));
        HttpMoverTest.write(seA.resolve("f"), 200_000, 48);
        String md5 = md5(seA.resolve("f"));
        FileMover mover = new FileMover(List.of(seA, seB));
        assertEquals(md5, mover.copy(md5Request(seA.resolve("f").toUri(), seB.resolve("ok").toUri(), 200_000L, md5, "both", 1, null)).checksum());
        assertEquals(MoverException.Code.CHECKSUM_MISMATCH, assertThrows(MoverException.class, () -> mover.copy(md5Request(seA.resolve("f").toUri(),
                seB.resolve("bad").toUri(), null, "f".repeat(32), "target", 1, null))).code());
        assertFalse(Files.exists(seB.resolve("bad")));
    }
}
