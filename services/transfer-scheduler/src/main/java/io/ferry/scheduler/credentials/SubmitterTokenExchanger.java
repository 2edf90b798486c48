package io.ferry.scheduler.credentials;

import io.ferry.engineloop.EngineLoop;
import io.ferry.scheduler.config.SchedulerConfig;
import io.ferry.scheduler.loops.WokenBy;
import io.ferry.scheduler.transitions.EngineWakeups;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.Duration;
import java.util.Set;

/**
 * Exchanges the token each job was submitted with for a long-lived one soon after submission (woken when a job is
 * stored), so that files queued behind other work still find a usable credential once the submitter's short-lived
 * token has expired; and again once an issuer's backoff has passed ({@link SubmitterTokens#exchangeDue}).
 */
@ApplicationScoped
public class SubmitterTokenExchanger extends EngineLoop implements WokenBy {

    private final SchedulerConfig config;
    private final SubmitterTokens tokens;

    @Inject
    SubmitterTokenExchanger(SchedulerConfig config, SubmitterTokens tokens) {
        this.config = config;
        this.tokens = tokens;
    }

    @Override
    public String name() {
        return "submitter-token-exchange";
    }

    @Override
    protected boolean enabled() {
        return !config.storageTokens().exchange().isEmpty();
    }

    @Override
    public Set<EngineWakeups.Event> wokenBy() {
        return Set.of(EngineWakeups.Event.JOB_SUBMITTED);
    }

    /** A backoff is waited out to within this period. */
    @Override
    protected Duration period() {
        return config.storageTokens().issuerBackoff();
    }

    @Override
    protected void pass() {
        // a full batch: more may be due at once
        while (tokens.exchangeDue() > 0) {
            if (Thread.currentThread().isInterrupted()) {
                return;
            }
        }
    }
}
