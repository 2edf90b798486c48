/** What the state store announces after each committed change ({@link io.ferry.scheduler.transitions.events.StateChanged}), and the in-process bus its observers subscribe to. */
package io.ferry.scheduler.transitions.events;
