package io.ferry.scheduler.jobs;

import io.ferry.problem.Problem;
import io.ferry.scheduler.config.EventStreamConfig;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * How many event streams are open on this replica, per client (token subject) and in all, and the limits on both.
 * A stream holds its slot from subscription to termination (completion, failure or the client going away).
 */
@ApplicationScoped
public class EventStreamLimits {

    public static final String TOO_MANY = "TOO_MANY_EVENT_STREAMS";

    final EventStreamConfig config;

    final MeterRegistry metrics;

    @Inject
    public EventStreamLimits(EventStreamConfig config, MeterRegistry metrics) {
        this.config = config;
        this.metrics = metrics;
    }

    private final AtomicInteger open = new AtomicInteger();
    /** Open streams per client; a client without streams has no entry. */
    private final Map<String, Integer> perClient = new ConcurrentHashMap<>();
    private Counter refusedForClient;
    private Counter refusedForReplica;

    void register(@Observes StartupEvent start) {
        Gauge.builder("ferry_event_streams", open, AtomicInteger::get)
                .description("open GET /jobs/{id}/events streams on this replica").register(metrics);
        refusedForClient = refused("client");
        refusedForReplica = refused("replica");
    }

    private Counter refused(String limit) {
        return Counter.builder("ferry_event_streams_refused_total").tag("limit", limit)
                .description("event streams refused with 429 because a limit was reached").register(metrics);
    }

    /**
     * {@code stream}, holding one of {@code client}'s slots while it runs. A client or replica at its limit is
     * refused here, before the response starts (429); should another stream take the last slot in between, this
     * one ends at once instead.
     */
    public <T> Multi<T> open(String client, Supplier<Multi<T>> stream) {
        if (perClient.getOrDefault(client, 0) >= config.maxPerClient()) {
            refusedForClient.increment();
            throw tooMany("client", config.maxPerClient(), "this client already has " + config.maxPerClient()
                    + " event streams open on this replica; close one first");
        }
        if (open.get() >= config.maxPerReplica()) {
            refusedForReplica.increment();
            throw tooMany("replica", config.maxPerReplica(), "this replica serves as many event streams as it may ("
                    + config.maxPerReplica() + "); retry later");
        }
        return Multi.createFrom().deferred(() -> {
            Slot slot = tryAcquire(client);
            if (slot == null) {
                return Multi.createFrom().empty();
            }
            return stream.get().onTermination().invoke(slot::release);
        });
    }

    /** Open streams on this replica. */
    public int open() {
        return open.get();
    }

    /** Clients with at least one open stream. */
    public int clients() {
        return perClient.size();
    }

    public int maxPerReplica() {
        return config.maxPerReplica();
    }

    private Slot tryAcquire(String client) {
        if (open.incrementAndGet() > config.maxPerReplica()) {
            open.decrementAndGet();
            return null;
        }
        boolean[] taken = {false};
        perClient.compute(client, (c, n) -> {
            int now = n == null ? 0 : n;
            if (now >= config.maxPerClient()) {
                return n;
            }
            taken[0] = true;
            return now + 1;
        });
        if (!taken[0]) {
            open.decrementAndGet();
            return null;
        }
        return new Slot(client);
    }

    private RetryLaterException tooMany(String limit, int max, String detail) {
        return new RetryLaterException(Problem.of(429, TOO_MANY, detail).withContext(Map.of("limit", limit, "max", max)),
                config.retryAfter());
    }

    /** One open stream's claim; released once, however often termination is reported. */
    private final class Slot {
        private final String client;
        private final AtomicBoolean held = new AtomicBoolean(true);

        Slot(String client) {
            this.client = client;
        }

        void release() {
            if (held.compareAndSet(true, false)) {
                perClient.computeIfPresent(client, (c, n) -> n <= 1 ? null : n - 1);
                open.decrementAndGet();
            }
        }
    }
}
