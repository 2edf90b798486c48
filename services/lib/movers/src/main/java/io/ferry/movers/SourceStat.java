package io.ferry.movers;

/**
 * What the prepare phase learnt about a source: its size (-1 when the SE does not say), whether it serves byte
 * ranges (parallel streams), and its checksum in the copy's algorithm (hex digits) when the SE offers one (WebDAV
 * {@code Want-Digest}), else null.
 */
public record SourceStat(long size, boolean ranges, String checksum) {
}
