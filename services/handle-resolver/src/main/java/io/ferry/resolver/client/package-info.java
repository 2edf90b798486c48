/** Clients of the other services: transfer-scheduler's SE catalogue and rate-aggregator's network costs. */
package io.ferry.resolver.client;
