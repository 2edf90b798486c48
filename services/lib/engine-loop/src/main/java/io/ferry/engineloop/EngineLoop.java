package io.ferry.engineloop;

import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * One long-running loop of the engine on its own named thread: a pass every {@code period}, or sooner when woken.
 * A failing pass (the database away, say) is logged once per kind of failure and retried on the next round.
 */
public abstract class EngineLoop {

    private final Logger log = Logger.getLogger(getClass());
    private final Semaphore wake = new Semaphore(0);
    private volatile boolean running;
    private Thread thread;
    private String lastFailure;

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

    protected synchronized void start(String name) {
        if (running) {
            return;
        }
        running = true;
        thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    protected synchronized void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }

    /** Daemon threads named {@code name-1…n} for the work a pass hands out. */
    protected static java.util.concurrent.ExecutorService workerPool(String name, int threads) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs the next pass now rather than at the end of the period. */
    public void wake() {
        if (wake.availablePermits() == 0) {
            wake.release();
        }
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
                pass();
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
}
