/** The base of a long-running loop on its own thread: periodic passes, wake-ups, failures logged once per kind. */
package io.ferry.engineloop;
