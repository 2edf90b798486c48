package io.ferry.movers;

/** What a finished copy moved: bytes, the ADLER32 of the bytes read, streams used and phase durations (ms). */
public record CopyResult(long bytes, String adler32, int streams, long transferMillis, long checksumMillis) {
}
