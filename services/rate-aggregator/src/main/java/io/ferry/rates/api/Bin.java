package io.ferry.rates.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

import java.time.OffsetDateTime;

/** One bin of a rate series; its figures are null where the bin holds nothing to compute them from. */
public record Bin(OffsetDateTime start, long filesDone, long filesFailed, long bytes, @Schema(nullable = true) Double rate,
                  @Schema(nullable = true) Double avgFileThroughput, @Schema(nullable = true) Double peakFileThroughput,
                  @Schema(nullable = true) Double efficiency, @Schema(nullable = true) Double overheadRatio,
                  @Schema(nullable = true) Double avgQueueSeconds) {
}
