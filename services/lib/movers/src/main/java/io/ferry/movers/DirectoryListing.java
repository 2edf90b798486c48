package io.ferry.movers;

import java.net.URI;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Lists the files of a directory tree on one protocol's storage, for a directory job: every file below {@code dir}
 * (a URL ending in {@code /}), recursively, named by its path relative to {@code dir} ({@code /}-separated, decoded,
 * never with a {@code .} or {@code ..} segment). Failures are {@link MoverException}s: SOURCE_NOT_FOUND when there is
 * no such directory, PERMISSION_DENIED when it may not be read.
 */
public interface DirectoryListing {

    /** The URL schemes this listing speaks (lower case). */
    Set<String> schemes();

    /**
     * The files below {@code dir} (below the SE's {@code base}) whose relative path {@code keep} accepts, at most
     * {@code limit} of them kept, all of them counted: a tree that has more is refused with its count, never truncated.
     * {@code credential} null: the mover's own identity.
     */
    Listing list(URI dir, URI base, StorageCredential credential, Predicate<String> keep, int limit) throws MoverException;

    /** A file of the tree: its path relative to the listed directory and its size in bytes (-1 when not known). */
    record ListedFile(String path, long size) {
    }

    /** The kept files (at most the limit) and how many files {@code keep} accepted in all. */
    record Listing(List<ListedFile> files, long matching) {

        public boolean overLimit() {
            return matching > files.size();
        }
    }
}
