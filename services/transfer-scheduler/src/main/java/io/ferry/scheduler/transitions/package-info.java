/** The one writer of file and job state: claims and every state change, the job-state rule, each change's transfer record, event, wake-ups and counters. */
package io.ferry.scheduler.transitions;
