package io.ferry.scheduler.loops;

import io.ferry.engineloop.EngineLoop;
import io.ferry.engineloop.Heartbeat;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import org.jboss.logging.Logger;

import java.util.concurrent.TimeUnit;

/**
 * Starts every {@link EngineLoop} bean of the scheduler at startup, after the other startup observers: where the engine
 * is enabled (or the loop {@link RunsWithoutEngine}) and the loop's own {@code enabled()} agrees; subscribes it to the
 * events it is {@link WokenBy}, gives it its pass metrics. Stops them all at shutdown — after {@code replicas.EngineDrain},
 * which observes the shutdown first, so the loops and their workers still run while the replica drains.
 */
@ApplicationScoped
public class LoopLifecycle {

    private static final Logger LOG = Logger.getLogger(LoopLifecycle.class);

    static final String PASS = "ferry_loop_pass_seconds";
    static final String LAST_PASS_AGE = "ferry_loop_last_pass_age_seconds";

    private final Instance<EngineLoop> loops;
    private final SchedulerConfig config;
    private final EngineWakeups wakeups;
    private final MeterRegistry registry;

    @Inject
    LoopLifecycle(@Any Instance<EngineLoop> loops, SchedulerConfig config, EngineWakeups wakeups, MeterRegistry registry) {
        this.loops = loops;
        this.config = config;
        this.wakeups = wakeups;
        this.registry = registry;
    }

    void onStart(@Observes @Priority(Interceptor.Priority.PLATFORM_AFTER) StartupEvent e) {
        for (EngineLoop loop : loops) {
            // asking its name creates every loop, run here or not: what a constructor registers (meters) exists on every replica
            String name = loop.name();
            if ((config.engine().enabled() || loop instanceof RunsWithoutEngine) && loop.start()) {
                if (loop instanceof WokenBy w) {
                    w.wokenBy().forEach(event -> wakeups.on(event, loop::wake));
                }
                measure(loop);
                LOG.debugf("%s started", name);
            }
        }
    }

    void onStop(@Observes ShutdownEvent e) {
        for (EngineLoop loop : loops) {
            try {
                loop.stop();
            } catch (RuntimeException ex) {
                LOG.warnf("%s did not stop cleanly: %s", loop.name(), ex.toString());
            }
        }
    }

    /** Pass durations by outcome (their count is the passes), and the time since the last pass: a stuck loop shows. */
    private void measure(EngineLoop loop) {
        Timer ok = timer(loop, "ok");
        Timer failed = timer(loop, "failed");
        loop.addListener((l, nanos, failure) -> (failure == null ? ok : failed).record(nanos, TimeUnit.NANOSECONDS));
        Gauge.builder(LAST_PASS_AGE, loop, LoopLifecycle::lastPassAge).tag("loop", loop.name())
                .description("seconds since the loop's last pass ended (NaN before its first)").register(registry);
    }

    private Timer timer(EngineLoop loop, String outcome) {
        return Timer.builder(PASS).tag("loop", loop.name()).tag("outcome", outcome)
                .description("passes of an engine loop, by outcome: ok, or failed (retried at the next period)").register(registry);
    }

    static double lastPassAge(EngineLoop loop) {
        Heartbeat h = loop.heartbeat();
        return h.lastPassEnded() == null ? Double.NaN : (System.currentTimeMillis() - h.lastPassEnded().toEpochMilli()) / 1000.0;
    }
}
