package io.ferry.movers;

import java.time.Instant;

/**
 * What the prepare phase learnt about a source: its size (-1 when the SE does not say), whether it serves byte
 * ranges (parallel streams), its checksum in the copy's algorithm (hex digits) when the SE offers one (WebDAV
 * {@code Want-Digest}), else null, and its modification time when the SE tells it (null when unknown).
 */
public record SourceStat(long size, boolean ranges, String checksum, Instant mtime) {

    /** A stat without a modification time. */
    public SourceStat(long size, boolean ranges, String checksum) {
        this(size, ranges, checksum, null);
    }

    /** The same stat with {@code checksum}. */
    public SourceStat withChecksum(String checksum) {
        return new SourceStat(size, ranges, checksum, mtime);
    }
}
