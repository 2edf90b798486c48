package io.ferry.engineloop;

import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One long-running loop on its own named thread: a pass every {@link #period()}, or sooner when woken. A subclass is
 * its {@link #pass()} and its settings; the base owns the lifecycle: {@link #start()} (when {@link #enabled()}, after
 * {@link #beforeStart()}), {@link #stop()} (the thread, then the loop's {@link WorkerPool}s drained for
 * {@link #drainGrace()}, then {@link #afterStop()}), the {@link Heartbeat} and the {@link PassListener}s. A failing
 * pass (the database away, say) is logged once per kind of failure and retried on the next round.
 */
public abstract class EngineLoop {

    private final Logger log = Logger.getLogger(getClass());
    private final Semaphore wake = new Semaphore(0);
    private final List<WorkerPool> pools = new CopyOnWriteArrayList<>();
    private final List<PassListener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicLong passes = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile Instant lastPassEnded;
    private volatile boolean running;
    private Thread thread;
    private String lastFailure;

    /** The loop's name: its thread's, and its label in logs and metrics. */
    public abstract String name();

    /** One round of work. */
    protected abstract void pass() throws Exception;

    protected abstract Duration period();

    /**
     * The shortest pause between two passes, however often the loop is woken: a burst of wake-ups (every finished
     * file wakes the transfer loop) is served by one pass instead of one pass each.
     */
    protected Duration minimumGap() {
        return Duration.ofMillis(20);
    }

    /** Whether the loop runs in this process; {@link #start()} does nothing otherwise. */
    protected boolean enabled() {
        return true;
    }

    /** Runs once on {@link #start()}, before the thread: subscriptions, gauges, whatever the passes need. */
    protected void beforeStart() {
    }

    /** Runs on {@link #stop()} once the thread is told to end and the workers are drained: closes what {@link #beforeStart()} opened. */
    protected void afterStop() {
    }

    /** How long {@link #stop()} lets the tasks of the loop's worker pools finish before they are interrupted. */
    protected Duration drainGrace() {
        return Duration.ZERO;
    }

    /** Starts the loop's thread when {@link #enabled()}; true when it runs (a second call changes nothing). */
    public synchronized boolean start() {
        if (running) {
            return true;
        }
        if (!enabled()) {
            return false;
        }
        beforeStart();
        running = true;
        thread = new Thread(this::loop, name());
        thread.setDaemon(true);
        thread.start();
        return true;
    }

    /**
     * Ends the loop: no pass starts any more (the one running is interrupted), the worker pools take no new task and
     * those in flight get {@link #drainGrace()} to end before they are interrupted; then {@link #afterStop()}.
     */
    public void stop() {
        synchronized (this) {
            if (!running) {
                return;
            }
            running = false;
            thread.interrupt();
        }
        for (WorkerPool p : pools) {
            if (!p.shutdown(drainGrace()) && !drainGrace().isZero()) {
                log.infof("%s: %d tasks of %s still ran after %s and were interrupted", name(), p.inFlight(), p.name(), drainGrace());
            }
        }
        afterStop();
    }

    public boolean running() {
        return running;
    }

    /** Runs the next pass now rather than at the end of the period. */
    public void wake() {
        if (wake.availablePermits() == 0) {
            wake.release();
        }
    }

    public Heartbeat heartbeat() {
        return new Heartbeat(passes.get(), failures.get(), lastPassEnded);
    }

    /** Tells {@code listener} of every pass from now on. */
    public void addListener(PassListener listener) {
        listeners.add(listener);
    }

    /**
     * A pool of {@code threads} named daemon threads ({@code name-1…n}) for the work a pass hands out, at most
     * {@code maxInFlight} tasks at a time; {@link #stop()} drains it.
     */
    protected WorkerPool workerPool(String name, int threads, int maxInFlight) {
        WorkerPool p = new WorkerPool(name, threads, maxInFlight);
        pools.add(p);
        return p;
    }

    private void loop() {
        long lastPass = System.nanoTime() - minimumGap().toNanos();
        while (running) {
            try {
                // passes at most every minimumGap: a burst of wake-ups is served by one pass, a lone one at once
                long since = System.nanoTime() - lastPass;
                if (since < minimumGap().toNanos()) {
                    Thread.sleep((minimumGap().toNanos() - since) / 1_000_000);
                    wake.drainPermits();
                }
                lastPass = System.nanoTime();
                Exception failure = null;
                try {
                    pass();
                } catch (InterruptedException e) {
                    throw e;
                } catch (Exception e) {
                    failure = e;
                }
                ended(System.nanoTime() - lastPass, failure);
                if (failure != null) {
                    throw failure;
                }
                if (lastFailure != null) {
                    log.infof("%s works again", thread.getName());
                    lastFailure = null;
                }
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                if (!running) {
                    return;
                }
                String kind = e.getClass().getName() + ": " + e.getMessage();
                if (!kind.equals(lastFailure)) {
                    log.warnf("%s: %s (retrying every %s)", thread.getName(), kind, period());
                    lastFailure = kind;
                }
            }
            try {
                wake.tryAcquire(period().toMillis(), TimeUnit.MILLISECONDS);
                wake.drainPermits();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void ended(long nanos, Exception failure) {
        passes.incrementAndGet();
        if (failure != null) {
            failures.incrementAndGet();
        }
        lastPassEnded = Instant.now();
        for (PassListener l : listeners) {
            try {
                l.passEnded(this, nanos, failure);
            } catch (RuntimeException e) {
                log.debugf(e, "%s: a pass listener failed", name());
            }
        }
    }
}
