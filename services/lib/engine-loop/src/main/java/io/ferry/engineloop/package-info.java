/**
 * The lifecycle of a long-running loop on its own thread, written once: start when enabled, periodic passes and
 * wake-ups, failures logged once per kind, a heartbeat and pass listeners, worker pools drained on stop.
 */
package io.ferry.engineloop;
