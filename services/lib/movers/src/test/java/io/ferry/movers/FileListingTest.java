package io.ferry.movers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A file:// tree listed for a directory job: relative paths, odd names, no links followed, the limit counted. */
class FileListingTest {

    @TempDir
    Path tmp;

    @Test
    void listsEveryFileOfTheTreeByItsRelativePathWithoutFollowingLinks() throws Exception {
        Path se = Files.createDirectories(tmp.resolve("se"));
        Path dir = Files.createDirectories(se.resolve("run/a b/ü%20"));
        Files.writeString(se.resolve("run/top.root"), "12345");
        Files.writeString(dir.resolve("x 1%.root"), "1");
        Files.createDirectories(se.resolve("run/empty"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("secret"), "no");
        Files.createSymbolicLink(se.resolve("run/loop"), se.resolve("run"));
        Files.createSymbolicLink(se.resolve("run/secret"), outside.resolve("secret"));
        FileMover mover = new FileMover(List.of(tmp));

        DirectoryListing.Listing all = mover.list(se.resolve("run").toUri(), se.toUri(), null, p -> true, 100);
        assertEquals(List.of(new DirectoryListing.ListedFile("a b/ü%20/x 1%.root", 1), new DirectoryListing.ListedFile("top.root", 5)),
                ListingTree.inPathOrder(all));
        assertFalse(all.overLimit());

        DirectoryListing.Listing one = mover.list(se.resolve("run").toUri(), se.toUri(), null, p -> true, 1);
        assertEquals(1, one.files().size());
        assertEquals(2, one.matching());
        assertTrue(one.overLimit());

        assertEquals(1, mover.list(se.resolve("run").toUri(), se.toUri(), null, p -> p.endsWith("top.root"), 1).matching());
    }

    @Test
    void aMissingOrForeignDirectoryIsRefused() throws Exception {
        Path se = Files.createDirectories(tmp.resolve("se"));
        Path other = Files.createDirectories(tmp.resolve("other"));
        FileMover mover = new FileMover(List.of(tmp));
        assertEquals(MoverException.Code.SOURCE_NOT_FOUND, assertThrows(MoverException.class,
                () -> mover.list(se.resolve("nope").toUri(), se.toUri(), null, p -> true, 10)).code());
        assertEquals(MoverException.Code.PERMISSION_DENIED, assertThrows(MoverException.class,
                () -> mover.list(other.toUri(), se.toUri(), null, p -> true, 10)).code());
    }
}
