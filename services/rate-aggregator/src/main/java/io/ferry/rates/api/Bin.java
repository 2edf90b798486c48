package io.ferry.rates.api;

import java.time.OffsetDateTime;

public record Bin(OffsetDateTime start, long filesDone, long filesFailed, long bytes, Double rate, Double avgFileThroughput,
                  Double peakFileThroughput, Double efficiency, Double overheadRatio, Double avgQueueSeconds) {
}
