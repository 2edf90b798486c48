/** What is queued, as everything else reads it: the job and file rows, their states, a claimed file, its attempt's times and the name of the replica that claims. */
package io.ferry.scheduler.queue;
