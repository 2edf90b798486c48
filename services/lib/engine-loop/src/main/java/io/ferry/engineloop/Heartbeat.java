package io.ferry.engineloop;

import java.time.Instant;

/**
 * A loop's signs of life: passes run, of which failed, and when the last pass ended (null before the first); for a
 * health check or a gauge of the time since the last pass.
 */
public record Heartbeat(long passes, long failures, Instant lastPassEnded) {
}
