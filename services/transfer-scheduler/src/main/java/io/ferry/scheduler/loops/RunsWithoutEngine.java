package io.ferry.scheduler.loops;

/**
 * A loop that runs on every replica, the engine's switch ({@code engine.enabled}) on or off: its own {@code enabled()}
 * alone decides. Every other loop runs only where the engine is enabled.
 */
public interface RunsWithoutEngine {
}
