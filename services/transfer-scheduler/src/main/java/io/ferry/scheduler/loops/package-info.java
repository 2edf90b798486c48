/**
 * The lifecycle of the scheduler's loops ({@link io.ferry.engineloop.EngineLoop} beans, in whichever feature they live):
 * started at startup, measured, stopped at shutdown.
 */
package io.ferry.scheduler.loops;
