package io.ferry.rates.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Summed rollup counters for a key pair over a span, with the figures sites read from them.
 * Throughputs are bytes/s; {@code rate} is bytes moved per second of the span (what the link carried),
 * {@code avgFileThroughput} the mean rate of single files while they moved.
 */
public record Totals(String source, String destination, long filesDone, long filesFailed, long filesCanceled, long bytes,
                     long sizeDone, double transferSeconds, double prepareSeconds, double checksumSeconds,
                     double queueSeconds, double throughputSum, double throughputMax, double spanSeconds) {

    @JsonProperty
    @Schema(nullable = true)
    public Double efficiency() {
        long n = filesDone + filesFailed;
        return n == 0 ? null : (double) filesDone / n;
    }

    /** (prepare + transfer) / transfer: 1.0 means no time lost outside moving bytes. */
    @JsonProperty
    @Schema(nullable = true)
    public Double overheadRatio() {
        return transferSeconds <= 0 ? null : (prepareSeconds + transferSeconds) / transferSeconds;
    }

    @JsonProperty
    @Schema(nullable = true)
    public Double avgFileThroughput() {
        return filesDone == 0 ? null : throughputSum / filesDone;
    }

    @JsonProperty
    @Schema(nullable = true)
    public Double peakFileThroughput() {
        return filesDone == 0 ? null : throughputMax;
    }

    @JsonProperty
    @Schema(nullable = true)
    public Double rate() {
        return spanSeconds <= 0 ? null : bytes / spanSeconds;
    }

    @JsonProperty
    @Schema(nullable = true)
    public Double avgFilesize() {
        return filesDone == 0 ? null : (double) sizeDone / filesDone;
    }

    @JsonProperty
    @Schema(nullable = true)
    public Double avgPrepareSeconds() {
        return filesDone == 0 ? null : prepareSeconds / filesDone;
    }

    @JsonProperty
    @Schema(nullable = true)
    public Double avgQueueSeconds() {
        return filesDone == 0 ? null : queueSeconds / filesDone;
    }
}
