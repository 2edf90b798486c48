package io.ferry.dev;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removing the directories that servers and tests of the harness create. */
public final class DirectoryTrees {

    private DirectoryTrees() {
    }

    /** Deletes {@code root} and everything below it, as far as it can; a missing root is fine. */
    public static void delete(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: what stays is temporary and is tried again by whoever creates it next
        }
    }
}
