package io.ferry.movers;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.TimeUnit;

/**
 * A {@link RateLimit} shared by every copy that holds it: tokens (bytes) flow in at the rate up to a burst of
 * {@link #BURST_SECONDS} of it; each chunk takes its size, and a chunk larger than what is left puts the bucket in
 * debt, which its caller sleeps off. Debt rather than waiting for a full chunk's worth keeps any chunk size working
 * and the average exact: over a span T the bucket lets through at most rate × T plus one burst.
 */
public final class TokenBucket implements RateLimit {

    /** The burst: a copy that waited may catch up this much at once, no more. */
    static final double BURST_SECONDS = 0.25;
    private static final long MAX_SLEEP_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** {@link System#nanoTime}, or a test's clock. */
    public interface Clock {
        long nanos();
    }

    /** {@link Thread#sleep}, or a test's. */
    public interface Sleeper {
        void sleep(long nanos) throws InterruptedException;
    }

    private final Clock clock;
    private final Sleeper sleeper;
    private double bytesPerSecond;
    private double tokens;
    private long lastNanos;

    public TokenBucket(double bytesPerSecond) {
        this(bytesPerSecond, System::nanoTime, nanos -> TimeUnit.NANOSECONDS.sleep(nanos));
    }

    public TokenBucket(double bytesPerSecond, Clock clock, Sleeper sleeper) {
        this.clock = clock;
        this.sleeper = sleeper;
        this.lastNanos = clock.nanos();
        setRate(bytesPerSecond);
        this.tokens = burst();
    }

    /** A new rate from now on (a link's cap changed, or the number of replicas sharing it). */
    public synchronized void setRate(double bytesPerSecond) {
        if (!(bytesPerSecond > 0)) {
            throw new IllegalArgumentException("a rate is positive, not " + bytesPerSecond);
        }
        refill();
        this.bytesPerSecond = bytesPerSecond;
        tokens = Math.min(tokens, burst());
    }

    public synchronized double rate() {
        return bytesPerSecond;
    }

    @Override
    public void acquire(long bytes, StillWanted stillWanted) throws IOException {
        if (bytes <= 0) {
            return;
        }
        long wait = take(bytes);
        try {
            // in slices, so a stopped copy ends within a second, not after its whole wait
            while (wait > 0) {
                long slice = Math.min(wait, MAX_SLEEP_NANOS);
                sleeper.sleep(slice);
                wait -= slice;
                stillWanted.check();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while rate-limited");
        }
    }

    /** Takes the bytes' tokens and answers how long (ns) the caller must sleep off the debt they leave. */
    private synchronized long take(long bytes) {
        refill();
        tokens -= bytes;
        return tokens >= 0 ? 0 : (long) Math.ceil(-tokens / bytesPerSecond * 1e9);
    }

    private void refill() {
        long now = clock.nanos();
        if (bytesPerSecond > 0) {
            tokens = Math.min(burst(), tokens + (now - lastNanos) / 1e9 * bytesPerSecond);
        }
        lastNanos = now;
    }

    private double burst() {
        return bytesPerSecond * BURST_SECONDS;
    }
}
