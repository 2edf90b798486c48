/** The gauges of what is queued and running, sampled from PostgreSQL (the counters of what happened are fed by {@code transitions}). */
package io.ferry.scheduler.metrics;
