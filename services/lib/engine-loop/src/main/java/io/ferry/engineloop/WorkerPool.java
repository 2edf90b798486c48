package io.ferry.engineloop;

import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The threads a loop's pass hands its work to: {@code threads} named daemon threads ({@code name-1…n}) and a count of
 * the tasks in flight (queued or running) against {@code maxInFlight}, so that a pass takes at most {@link #free()} new
 * tasks. The count of a task drops before its follow-up runs, so a follow-up that wakes the loop finds the slot free.
 */
public final class WorkerPool {

    private final String name;
    private final int maxInFlight;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final ExecutorService executor;

    public WorkerPool(String name, int threads, int maxInFlight) {
        this.name = name;
        this.maxInFlight = maxInFlight;
        AtomicInteger n = new AtomicInteger();
        this.executor = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    public String name() {
        return name;
    }

    /** How many more tasks a pass may hand over now (0 or more). */
    public int free() {
        return Math.max(0, maxInFlight - inFlight.get());
    }

    public int inFlight() {
        return inFlight.get();
    }

    public void submit(Runnable task) {
        submit(() -> {
            task.run();
            return null;
        }, r -> {
        });
    }

    /**
     * Runs {@code task} on a worker, then {@code afterwards} with its answer (null when it threw) once its slot is
     * free again.
     */
    public <T> void submit(Supplier<T> task, Consumer<T> afterwards) {
        inFlight.incrementAndGet();
        executor.submit(() -> {
            T answer = null;
            try {
                answer = task.get();
            } finally {
                inFlight.decrementAndGet();
                afterwards.accept(answer);
            }
        });
    }

    /**
     * Takes no new task, lets the tasks in flight run for up to {@code grace}, then interrupts what still runs and
     * drops what has not started; true when every task ended within the grace.
     */
    public boolean shutdown(Duration grace) {
        executor.shutdown();
        boolean ended = false;
        try {
            ended = executor.awaitTermination(Math.max(0, grace.toNanos()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!ended) {
            executor.shutdownNow();
        }
        return ended;
    }
}
