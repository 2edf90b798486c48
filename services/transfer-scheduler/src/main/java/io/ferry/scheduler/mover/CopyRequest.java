package io.ferry.scheduler.mover;

import java.net.URI;

/**
 * One copy: source and destination URLs, what the file should be (size, ADLER32 as 8 hex digits, both optional),
 * FTS3's checksum mode (none, source, target, both), whether an existing destination may be replaced, the number
 * of parallel streams, the destination SE's base URL (parent collections are created below it), and whether the
 * destination SE pulls the file itself (HTTP third-party copy).
 */
public record CopyRequest(URI source, URI destination, Long expectedSize, String expectedAdler32, String verify,
                          boolean overwrite, int streams, URI destinationBase, boolean thirdPartyCopy) {

    /** A copy whose data flows through the mover. */
    public CopyRequest(URI source, URI destination, Long expectedSize, String expectedAdler32, String verify, boolean overwrite, int streams,
                       URI destinationBase) {
        this(source, destination, expectedSize, expectedAdler32, verify, overwrite, streams, destinationBase, false);
    }

    /** FTS3's checksum mode, "none" when not given. */
    public String verifyMode() {
        return verify == null ? "none" : verify;
    }

    /** Whether the copy computes ADLER32 while streaming (any mode but none). */
    public boolean checksums() {
        return !verifyMode().equals("none");
    }
}
