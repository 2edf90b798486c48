/** The scheduler replicas: heartbeats, dead replicas' files taken over, leases of the files in hand, drain on shutdown, and {@code /status/hosts}. */
package io.ferry.scheduler.replicas;
