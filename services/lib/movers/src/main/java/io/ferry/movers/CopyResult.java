package io.ferry.movers;

/**
 * What a finished copy moved: bytes, the checksum of the bytes read (hex digits of the request's algorithm, null when
 * none was computed), streams used and phase durations (ms).
 */
public record CopyResult(long bytes, String checksum, int streams, long transferMillis, long checksumMillis) {
}
