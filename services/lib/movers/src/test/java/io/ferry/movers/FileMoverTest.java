package io.ferry.movers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** file:// copies stay inside the configured roots and leave nothing behind when they fail. */
class FileMoverTest {

    @TempDir
    Path tmp;

    @Test
    void copiesInsideRootsAndRefusesEscapes() throws Exception {
        Path seA = Files.createDirectories(tmp.resolve("se-a"));
        Path seB = Files.createDirectories(tmp.resolve("se-b"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "do not copy");
        String adler = HttpMoverTest.write(seA.resolve("run/f1"), 300_000, 4);
        FileMover mover = new FileMover(List.of(seA, seB));

        CopyResult r = mover.copy(new CopyRequest(seA.resolve("run/f1").toUri(), seB.resolve("a/b/f1").toUri(), 300_000L, adler, "both", false, 1, null));
        assertEquals(adler, r.checksum());
        assertEquals(-1, Files.mismatch(seA.resolve("run/f1"), seB.resolve("a/b/f1")));

        assertEquals(MoverException.Code.DEST_EXISTS, assertThrows(MoverException.class, () -> mover.copy(new CopyRequest(
                seA.resolve("run/f1").toUri(), seB.resolve("a/b/f1").toUri(), null, null, "none", false, 1, null))).code());
        SourceStat there = mover.statDestination(new CopyRequest(seA.resolve("run/f1").toUri(), seB.resolve("a/b/f1").toUri(), null, null,
                "none", false, 1, null));
        assertEquals(300_000, there.size());
        assertEquals(adler, there.checksum());
        java.time.Instant then = java.time.Instant.parse("2026-01-02T03:04:05Z");
        Files.setLastModifiedTime(seB.resolve("a/b/f1"), java.nio.file.attribute.FileTime.from(then));
        SourceStat cheap = mover.destinationStat(new CopyRequest(seA.resolve("run/f1").toUri(), seB.resolve("a/b/f1").toUri(), null, null,
                "none", false, 1, null));
        assertEquals(then, cheap.mtime(), "a sync check compares modification times");
        assertEquals(300_000, cheap.size());
        assertEquals(null, cheap.checksum(), "the cheap stat never reads the file");
        assertEquals(then, mover.statDestination(new CopyRequest(seA.resolve("run/f1").toUri(), seB.resolve("a/b/f1").toUri(), null, null,
                "none", false, 1, null)).mtime());
        assertEquals(Files.getLastModifiedTime(seA.resolve("run/f1")).toInstant(), mover.stat(seA.resolve("run/f1").toUri()).mtime());
        assertEquals(MoverException.Code.PERMISSION_DENIED, assertThrows(MoverException.class, () -> mover.statDestination(new CopyRequest(
                seA.resolve("run/f1").toUri(), outside.resolve("secret").toUri(), null, null, "none", false, 1, null))).code());
        assertEquals(MoverException.Code.PERMISSION_DENIED, assertThrows(MoverException.class, () -> mover.copy(new CopyRequest(
                outside.resolve("secret").toUri(), seB.resolve("stolen").toUri(), null, null, "none", false, 1, null))).code());
        Files.createSymbolicLink(seA.resolve("link"), outside.resolve("secret"));
        assertEquals(MoverException.Code.PERMISSION_DENIED, assertThrows(MoverException.class, () -> mover.copy(new CopyRequest(
                seA.resolve("link").toUri(), seB.resolve("stolen").toUri(), null, null, "none", false, 1, null))).code());
        assertFalse(Files.exists(seB.resolve("stolen")));
        assertEquals(MoverException.Code.CHECKSUM_MISMATCH, assertThrows(MoverException.class, () -> mover.copy(new CopyRequest(
                seA.resolve("run/f1").toUri(), seB.resolve("bad").toUri(), null, "00000001", "source", false, 1, null))).code());
        assertFalse(Files.exists(seB.resolve("bad")), "no wrong copy and no partial file");
        try (var files = Files.list(seB)) {
            assertEquals(List.of("a"), files.map(p -> p.getFileName().toString()).sorted().toList());
        }
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, assertThrows(MoverException.class, () -> mover.copy(new CopyRequest(
                seA.resolve("nope").toUri(), seB.resolve("x").toUri(), null, null, "none", false, 1, null))).code());
    }

    /** A file Ferry makes for itself (a link probe's source): the size asked for, the ADLER32 answered, removed again, never outside its SE. */
    @Test
    void createsAGeneratedFileOfTheSizeAskedAndRemovesIt() throws Exception {
        Path se = Files.createDirectories(tmp.resolve("se"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        FileMover mover = new FileMover(List.of(tmp));
        Path made = se.resolve("ferry-probes/7/run1");
        String adler = mover.create(made.toUri(), se.toUri(), 200_003, null);
        assertEquals(200_003, Files.size(made));
        java.util.zip.Adler32 sum = new java.util.zip.Adler32();
        sum.update(Files.readAllBytes(made));
        assertEquals(String.format("%08x", sum.getValue()), adler);
        assertEquals(MoverException.Code.PERMISSION_DENIED, assertThrows(MoverException.class,
                () -> mover.create(outside.resolve("x").toUri(), se.toUri(), 10, null)).code());
        assertFalse(Files.exists(outside.resolve("x")));
        mover.remove(made.toUri(), se.toUri(), null);
        assertFalse(Files.exists(made));
        mover.remove(made.toUri(), se.toUri(), null);  // already gone: no failure
    }

    @Test
    void eachSideStaysInsideItsStorageEndpointsDirectoryNotOnlyInsideTheRoots() throws Exception {
        // one root holds three directories: two SEs and something that belongs to neither
        Path seA = Files.createDirectories(tmp.resolve("se-a"));
        Path seB = Files.createDirectories(tmp.resolve("se-b"));
        Path other = Files.createDirectories(tmp.resolve("other"));
        Files.writeString(other.resolve("secret"), "no SE's file");
        Files.writeString(seA.resolve("f1"), "a file of se-a");
        Files.createSymbolicLink(seA.resolve("peek"), other.resolve("secret"));
        Files.createSymbolicLink(seB.resolve("link"), other);
        FileMover mover = new FileMover(List.of(tmp));

        CopyRequest fine = new CopyRequest(seA.resolve("f1").toUri(), seB.resolve("d/f1").toUri(), null, null, "none", false, 1,
                seB.toUri(), false, seA.toUri());
        mover.copy(fine);
        assertEquals("a file of se-a", Files.readString(seB.resolve("d/f1")));

        for (CopyRequest escape : List.of(
                new CopyRequest(seA.resolve("peek").toUri(), seB.resolve("peeked").toUri(), null, null, "none", false, 1, seB.toUri(), false, seA.toUri()),
                new CopyRequest(seA.resolve("f1").toUri(), seB.resolve("link/x").toUri(), null, null, "none", false, 1, seB.toUri(), false, seA.toUri()),
                new CopyRequest(other.resolve("secret").toUri(), seB.resolve("stolen").toUri(), null, null, "none", false, 1, seB.toUri(), false, seA.toUri()),
                new CopyRequest(seA.resolve("f1").toUri(), other.resolve("planted").toUri(), null, null, "none", false, 1, seB.toUri(), false, seA.toUri()))) {
            MoverException e = assertThrows(MoverException.class, () -> mover.copy(escape), escape.toString());
            assertEquals(MoverException.Code.PERMISSION_DENIED, e.code(), e.getMessage());
        }
        assertFalse(Files.exists(seB.resolve("peeked")));
        assertFalse(Files.exists(other.resolve("x")));
        assertFalse(Files.exists(seB.resolve("stolen")));
        assertFalse(Files.exists(other.resolve("planted")));
        assertEquals(MoverException.Code.PERMISSION_DENIED,
                assertThrows(MoverException.class, () -> mover.stat(seA.resolve("peek").toUri(), seA.toUri())).code(), "the prepare phase's stat too");
    }

    @Test
    void aFailedCopyNeverTouchesAnExistingDestination() throws Exception {
        Path seA = Files.createDirectories(tmp.resolve("se-a"));
        Path seB = Files.createDirectories(tmp.resolve("se-b"));
        Files.writeString(seB.resolve("kept"), "there before");
        FileMover mover = new FileMover(List.of(tmp));
        HttpMoverTest.write(seA.resolve("f1"), 10_000, 5);
        for (CopyRequest failing : List.of(
                new CopyRequest(seA.resolve("f1").toUri(), seB.resolve("kept").toUri(), null, null, "none", false, 1, null),
                new CopyRequest(seA.resolve("nope").toUri(), seB.resolve("kept").toUri(), null, null, "none", true, 1, null),
                new CopyRequest(seA.resolve("f1").toUri(), seB.resolve("kept").toUri(), null, "00000001", "source", true, 1, null))) {
            assertThrows(MoverException.class, () -> mover.copy(failing));
            assertEquals("there before", Files.readString(seB.resolve("kept")));
        }
        try (var files = Files.list(seB)) {
            assertEquals(List.of("kept"), files.map(p -> p.getFileName().toString()).toList(), "no temporary file is left");
        }
    }
}
