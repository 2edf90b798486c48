package io.ferry.rates.api;

import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A probed link within a window: its runs, the finished ones, and their mean throughput. */
public record ProbedLink(String source, String destination, long runs, long finished,
                         @Schema(nullable = true) Double averageThroughput) {
}
