package io.ferry.scheduler.jobs;

import io.ferry.problem.Problem;
import io.ferry.problem.ProblemException;

import java.time.Duration;

/** A problem the client may retry after a while: answered with a {@code Retry-After} header. */
public class RetryLaterException extends ProblemException {

    private final transient Duration retryAfter;

    public RetryLaterException(Problem problem, Duration retryAfter) {
        super(problem);
        this.retryAfter = retryAfter;
    }

    /** Whole seconds, at least one, as {@code Retry-After} wants them. */
    public long retryAfterSeconds() {
        return Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    }
}
