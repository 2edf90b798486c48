/** Prometheus meters of the resolver's native Handle protocol, registered up front so the hot path only increments. */
package io.ferry.resolver.metrics;
