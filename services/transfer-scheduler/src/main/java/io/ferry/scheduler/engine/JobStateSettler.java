package io.ferry.scheduler.engine;

import io.ferry.engineloop.EngineLoop;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.loops.WokenBy;
import io.ferry.scheduler.transitions.EngineWakeups;
import io.ferry.scheduler.transitions.StateStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Set;
import java.util.UUID;

/**
 * Closes jobs whose last files closed without settling the job: two last files finishing at once (each saw the
 * other still open), or a job row that was busy at that moment. Runs every few ticks and whenever a file changes.
 */
@ApplicationScoped
public class JobStateSettler extends EngineLoop implements WokenBy {

    private final SchedulerConfig config;
    private final StateStore states;

    @Inject
    JobStateSettler(SchedulerConfig config, StateStore states) {
        this.config = config;
        this.states = states;
    }

    @Override
    public String name() {
        return "job-states";
    }

    @Override
    public Set<EngineWakeups.Event> wokenBy() {
        return Set.of(EngineWakeups.Event.FILE_CHANGED);
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
