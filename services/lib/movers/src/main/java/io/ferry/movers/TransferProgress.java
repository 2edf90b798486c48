package io.ferry.movers;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The bytes a running copy has moved so far (stall detection looks at real progress, not at a heartbeat) and a
 * way to stop it: once aborted, the next read of the source fails, which fails the PUT and ends the copy.
 */
public final class TransferProgress {

    private final AtomicLong bytes = new AtomicLong();
    private volatile long lastProgressNanos = System.nanoTime();
    private volatile MoverException.Code abortCode;
    private volatile String abortReason;
    private volatile Runnable onAbort;

    /** For copies nobody watches. */
    public static TransferProgress unwatched() {
        return new TransferProgress();
    }

    void moved(int n) throws IOException {
        if (abortCode != null) {
            throw new IOException("aborted: " + abortReason);
        }
        if (n > 0) {
            bytes.addAndGet(n);
            lastProgressNanos = System.nanoTime();
        }
    }

    /**
     * A copy waiting out its rate cap: it fails once stopped, like {@link #moved}, and is not stalled (it waits by
     * Ferry's choice, after bytes it did move).
     */
    public void rateLimited() throws IOException {
        if (abortCode != null) {
            throw new IOException("aborted: " + abortReason);
        }
        lastProgressNanos = System.nanoTime();
    }

    /**
     * For a copy another party runs (a root:// third-party copy, where Ferry only watches the destination grow): the
     * destination holds {@code total} bytes now; what it gained since the last call counts as moved. Fails once the
     * copy was stopped, like {@link #moved}.
     */
    public void reachedTotal(long total) throws IOException {
        long gained = total - bytes.get();
        moved((int) Math.max(0, Math.min(Integer.MAX_VALUE, gained)));
    }

    /** The copy starts over from its first byte (its destination refused the first upload before keeping any). */
    void restart() {
        bytes.set(0);
        lastProgressNanos = System.nanoTime();
    }

    public long bytes() {
        return bytes.get();
    }

    /** Nanoseconds (System.nanoTime) of the last byte moved, or of the start. */
    public long lastProgressNanos() {
        return lastProgressNanos;
    }

    public void abort(MoverException.Code code, String reason) {
        this.abortReason = reason;
        this.abortCode = code;
        Runnable action = onAbort;
        if (action != null) {
            action.run();
        }
    }

    /**
     * What stopping the copy must also do, for a copy that may wait long between two reads (null: nothing); run at
     * once if the copy was stopped already.
     */
    void onAbort(Runnable action) {
        this.onAbort = action;
        if (action != null && abortCode != null) {
            action.run();
        }
    }

    /** Why the copy was stopped, as the failure to report instead of the I/O error the abort caused; null if not. */
    public MoverException aborted(String phase) {
        MoverException.Code code = abortCode;
        return code == null ? null : new MoverException(code, phase, abortReason);
    }
}
