package io.ferry.movers;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;

/** A tree the directory-listing tests list: files at relative paths below one directory, each of {@code size} bytes. */
public record ListingTree(List<String> files, int size) {

    private static final Comparator<DirectoryListing.ListedFile> BY_PATH = Comparator.comparing(DirectoryListing.ListedFile::path);

    /** Writes the files below {@code root}, with the directories they need, and an empty directory "empty". */
    public void writeUnder(Path root) throws IOException {
        for (String file : files) {
            Path path = root.resolve(file);
            Files.createDirectories(path.getParent());
            Files.write(path, new byte[size]);
        }
        Files.createDirectories(root.resolve("empty"));
    }

    /** What listing the whole tree answers, in path order. */
    public List<DirectoryListing.ListedFile> listed() {
        return files.stream().map(f -> new DirectoryListing.ListedFile(f, size)).sorted(BY_PATH).toList();
    }

    /** A listing's files in path order, to compare with {@link #listed()}. */
    public static List<DirectoryListing.ListedFile> inPathOrder(DirectoryListing.Listing listing) {
        return listing.files().stream().sorted(BY_PATH).toList();
    }
}
