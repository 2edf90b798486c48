package io.ferry.rates.api;

/** {@code facts}: increments folded (each a partial sum of one batch's records of one key and 5-minute bin). */
public record Drained(long facts, long pendingAfter) {
}
