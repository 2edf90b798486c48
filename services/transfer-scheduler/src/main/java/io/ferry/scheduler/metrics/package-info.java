/** Prometheus meters of the transfers: counters the engine's state changes feed, gauges sampled from PostgreSQL. */
package io.ferry.scheduler.metrics;
