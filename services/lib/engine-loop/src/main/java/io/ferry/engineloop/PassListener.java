package io.ferry.engineloop;

/** Told of every pass a loop ends: for pass metrics, without the loop knowing a metrics library. */
@FunctionalInterface
public interface PassListener {

    /** On the loop's thread, after the pass: how long it took and what it threw (null when it worked). */
    void passEnded(EngineLoop loop, long nanos, Exception failure);
}
