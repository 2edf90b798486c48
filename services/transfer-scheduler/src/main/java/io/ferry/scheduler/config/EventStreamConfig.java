package io.ferry.scheduler.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/**
 * Limits of {@code GET /jobs/{id}/events} ({@code ferry.scheduler.event-streams.*}; environment
 * {@code FERRY_SCHEDULER_EVENT_STREAMS_*}). Each open stream holds a connection and a listener on this replica.
 */
@ConfigMapping(prefix = "ferry.scheduler.event-streams")
public interface EventStreamConfig {

    /** Streams one client (token subject) may hold open on this replica at once. */
    @WithDefault("16")
    int maxPerClient();

    /** Streams this replica holds open at once, over all clients. */
    @WithDefault("1000")
    int maxPerReplica();

    /** What a refused client is told to wait ({@code Retry-After}). */
    @WithDefault("10s")
    Duration retryAfter();

    /**
     * Events a stream may hold for a client that does not read them (its snapshot included: a job has at most
     * 10,000 files); beyond that the stream ends and the client reconnects for a fresh snapshot.
     */
    @WithDefault("20000")
    int maxPendingEvents();
}
