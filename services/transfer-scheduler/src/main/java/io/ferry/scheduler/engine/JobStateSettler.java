package io.ferry.scheduler.engine;

import io.ferry.engineloop.EngineLoop;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.StateStore;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.UUID;

/**
 * Closes jobs whose last files closed without settling the job: two last files finishing at once (each saw the
 * other still open), or a job row that was busy at that moment. Runs every few ticks and whenever a file changes.
 */
@ApplicationScoped
public class JobStateSettler extends EngineLoop {

    @Inject
    SchedulerConfig config;

    @Inject
    StateStore states;

    @Inject
    EngineWakeups wakeups;

    void onStart(@Observes StartupEvent e) {
        if (config.engine().enabled()) {
            wakeups.on(EngineWakeups.Event.FILE_CHANGED, this::wake);
            start("job-states");
        }
    }

    void onStop(@Observes ShutdownEvent e) {
        stop();
    }

    @Override
    protected Duration period() {
        return config.engine().tick().multipliedBy(4);
    }

    /**
     * Changes that close a job settle it themselves; this loop only mends the rare ones that could not, so a burst
     * of changes (every finished batch wakes it) is served by one pass every tenth of a second rather than every few
     * milliseconds, each pass a probe of every open job.
     */
    @Override
    protected Duration minimumGap() {
        return Duration.ofMillis(100);
    }

    @Override
    protected void pass() {
        for (UUID job : states.unsettledJobs()) {
            states.settle(job);
        }
    }
}
