package io.ferry.movers;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * The copy path's direct memory: 256 KiB buffers within one budget shared by every copy of the replica. Direct
 * memory lives outside the heap but inside the pod's limit, and a replica runs up to a hundred copies at once, each
 * wanting up to 8 MiB per Range stream; without a budget, a few 16-stream copies would take the pod past its limit.
 * A copy reserves its buffers before it starts (at least what it needs to move a byte, more when the budget has
 * room), so a copy never waits for a buffer half-way. Buffers are reused: a direct buffer costs a native allocation,
 * zeroing and a cleaner, too much to pay per file when a job moves hundreds of small files a second.
 */
final class DirectBuffers {

    static final int SIZE = 256 << 10;

    private final int total;
    private final int maxPerCopy;
    private final Semaphore unreserved;
    private final ConcurrentLinkedQueue<ByteBuffer> free = new ConcurrentLinkedQueue<>();

    /** @param budgetBytes direct memory all copies together may hold; one copy takes at most a quarter of it */
    DirectBuffers(long budgetBytes) {
        this.total = (int) Math.max(1, Math.min(Integer.MAX_VALUE, budgetBytes / SIZE));
        this.maxPerCopy = Math.max(1, total / 4);
        this.unreserved = new Semaphore(total);
    }

    /** How many buffers the whole budget holds. */
    int total() {
        return total;
    }

    /** Buffers not reserved by any copy right now. */
    int available() {
        return unreserved.availablePermits();
    }

    /**
     * Reserves at least {@code min} buffers (waiting up to {@code wait} for other copies to give theirs back) and up to
     * {@code max} when they are free, never more than a quarter of the budget; null if {@code min} could not be had
     * in time. {@code min} above what one copy may hold is lowered to that.
     */
    Reservation reserve(int min, int max, Duration wait) throws InterruptedException {
        int cap = Math.min(max, maxPerCopy);
        int need = Math.max(1, Math.min(min, cap));
        if (!unreserved.tryAcquire(need, wait.toNanos(), TimeUnit.NANOSECONDS)) {
            return null;
        }
        int got = need;
        while (got < cap && unreserved.tryAcquire()) {
            got++;
        }
        return new Reservation(got);
    }

    /**
     * A copy's buffers: {@link #reserve} tried again while other copies hold the budget, as long as the copy is not
     * stopped, up to {@code timeout} (then TIMEOUT: the file is tried again later). After a second, one buffer will
     * do: a single stream moves the file with one, better than waiting for more.
     */
    Reservation reserveForCopy(int min, int max, Duration timeout, TransferProgress progress) throws MoverException {
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        try {
            while (true) {
                Reservation r = reserve(min, max, Duration.ofMillis(200));
                if (r != null) {
                    return r;
                }
                MoverException aborted = progress.aborted("transfer");
                if (aborted != null) {
                    throw aborted;
                }
                if (System.nanoTime() > deadline) {
                    throw new MoverException(MoverException.Code.TIMEOUT, "transfer",
                            "no copy memory came free within " + timeout.toSeconds() + " s (all of it is held by running copies)");
                }
                if (min > 1 && System.nanoTime() - start > 1_000_000_000L) {
                    min = 1;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            // as an interrupted read would be: the replica is stopping, the file is tried again
            throw new MoverException(MoverException.Code.CONNECTION_RESET, "transfer", "interrupted while waiting for copy memory");
        }
    }

    /** Buffers one copy may hold at once; taken and given back on the copy's threads, released when it closes. */
    final class Reservation implements AutoCloseable {
        private final int size;
        private int held;
        private boolean closed;

        private Reservation(int size) {
            this.size = size;
        }

        /** How many buffers this copy may hold. */
        int size() {
            return size;
        }

        /** A cleared buffer; the caller must not hold more than {@link #size()} at once. */
        ByteBuffer take() {
            synchronized (this) {
                if (closed || held >= size) {
                    throw new IllegalStateException("a copy took more buffers than it reserved (" + size + ")");
                }
                held++;
            }
            ByteBuffer b = free.poll();
            return b == null ? ByteBuffer.allocateDirect(SIZE) : b.clear();
        }

        /**
         * Gives a buffer back for the next copy. A buffer that comes back after the copy closed (a range that arrived
         * after the copy was abandoned) frees its place in the budget only now.
         */
        void give(ByteBuffer b) {
            if (b == null) {
                return;
            }
            free.offer(b);
            synchronized (this) {
                held--;
                if (!closed) {
                    return;
                }
            }
            unreserved.release();
        }

        /** Frees the reservation; buffers still out free their places as they come back. */
        @Override
        public void close() {
            int release;
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
                release = size - held;
            }
            unreserved.release(release);
        }
    }
}
