package io.ferry.movers;

/**
 * What the prepare phase learnt about a source: its size (-1 when the SE does not say), whether it serves byte
 * ranges (parallel streams), and its ADLER32 when the SE offers one (WebDAV {@code Want-Digest}), else null.
 */
public record SourceStat(long size, boolean ranges, String adler32) {
}
