/** The one writer of file and job state: the transitions ({@link io.ferry.scheduler.transitions.StateStore}, in PostgreSQL {@link io.ferry.scheduler.transitions.StateChanges}), claims, the job-state rule, each change's record and NOTIFY; wake-ups and counters observe the changes ({@link io.ferry.scheduler.transitions.events.StateChanged}). */
package io.ferry.scheduler.transitions;
