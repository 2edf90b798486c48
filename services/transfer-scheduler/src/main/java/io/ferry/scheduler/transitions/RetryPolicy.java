package io.ferry.scheduler.transitions;

/**
 * Whether a failed attempt is tried again: only recoverable failures (timeouts, 5xx, resets, stalls), and only while
 * the job's {@code retry} count allows (FTS3: retry = number of further attempts after the first).
 */
public final class RetryPolicy {

    private RetryPolicy() {
    }

    /** @param attemptsDone attempts made so far, the failed one included */
    public static boolean retry(boolean recoverable, int attemptsDone, int retry) {
        return recoverable && attemptsDone <= retry;
    }
}
