package io.ferry.scheduler.mover;

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
        assertEquals(adler, r.adler32());
        assertEquals(-1, Files.mismatch(seA.resolve("run/f1"), seB.resolve("a/b/f1")));

        assertEquals(MoverException.Code.DEST_EXISTS, assertThrows(MoverException.class, () -> mover.copy(new CopyRequest(
                seA.resolve("run/f1").toUri(), seB.resolve("a/b/f1").toUri(), null, null, "none", false, 1, null))).code());
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
}
