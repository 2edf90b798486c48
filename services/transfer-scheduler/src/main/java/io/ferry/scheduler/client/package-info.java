/** REST clients of the other services (tcp-profiles' stream advice, handle-resolver's replicas, rate-aggregator's records), each call carrying the service token. */
package io.ferry.scheduler.client;
