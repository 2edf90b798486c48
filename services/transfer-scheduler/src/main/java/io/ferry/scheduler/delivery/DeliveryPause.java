package io.ferry.scheduler.delivery;

import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * The pause of a delivery loop whose receiver is away: after a failure the next try waits the interval, doubled per
 * failure in a row, at most the max backoff. The pause is the loop's, not each item's: nothing is rewritten per try.
 */
final class DeliveryPause {

    /** What a batch answers when its receiver did not take it. */
    static final int NOT_TAKEN = -1;

    private int failures;
    private long pausedUntilNanos;

    /**
     * Unless the pause goes on, delivers batch after batch while they come full ({@code batch} answers how many items
     * it delivered, or {@link #NOT_TAKEN}): true when the last batch took every waiting item, false when one was not
     * taken or the pause goes on.
     */
    boolean deliverAll(IntSupplier batch, int full) {
        if (!due()) {
            return false;
        }
        int sent;
        do {
            sent = batch.getAsInt();
        } while (sent == full);
        return sent != NOT_TAKEN;
    }

    /** Whether a try may be made now. */
    boolean due() {
        return failures == 0 || System.nanoTime() >= pausedUntilNanos;
    }

    /** Counts a failure and starts the pause; returns the failures in a row. */
    int failed(Duration interval, Duration maxBackoff) {
        failures++;
        long pause = Math.min(maxBackoff.toNanos(), interval.toNanos() << Math.min(20, failures - 1));
        pausedUntilNanos = System.nanoTime() + pause;
        return failures;
    }

    /** Ends the pause; returns the failures in a row before this success. */
    int succeeded() {
        int before = failures;
        failures = 0;
        return before;
    }
}
