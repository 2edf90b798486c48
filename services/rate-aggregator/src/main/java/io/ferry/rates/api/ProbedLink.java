package io.ferry.rates.api;

/** A probed link within a window: its runs, the finished ones, and their mean throughput. */
public record ProbedLink(String source, String destination, long runs, long finished, Double averageThroughput) {
}
