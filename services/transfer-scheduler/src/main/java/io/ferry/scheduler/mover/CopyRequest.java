package io.ferry.scheduler.mover;

import java.net.URI;

/**
 * One copy: source and destination URLs, what the file should be (size, ADLER32 as 8 hex digits, both optional),
 * FTS3's checksum mode (none, source, target, both), whether an existing destination may be replaced, the number
 * of parallel streams, and the destination SE's base URL (parent collections are created below it).
 */
public record CopyRequest(URI source, URI destination, Long expectedSize, String expectedAdler32, String verify,
                          boolean overwrite, int streams, URI destinationBase) {
}
