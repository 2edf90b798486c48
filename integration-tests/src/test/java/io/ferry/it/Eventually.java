package io.ferry.it;

import java.time.Duration;
import java.time.Instant;

/** Waits for something the stack does in its own time (a job finishing, a replica taking over), polling it. */
final class Eventually {

    /** A condition to poll; it may throw while the thing it looks at is not there yet. */
    interface Check {
        boolean holds() throws Exception;
    }

    private Eventually() {
    }

    /** Returns as soon as {@code check} holds; fails naming {@code what} after {@code within}. */
    static void until(Duration within, Check check, String what) throws Exception {
        Instant deadline = Instant.now().plus(within);
        while (Instant.now().isBefore(deadline)) {
            if (check.holds()) {
                return;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not seen within " + within.toSeconds() + " s: " + what);
    }
}
