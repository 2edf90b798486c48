package io.ferry.engineloop;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EngineLoopTest {

    /** A loop whose passes are recorded (as nanoTime) and whose failures come from a queue of exceptions to throw. */
    static final class RecordingLoop extends EngineLoop {
        final Duration period;
        final Duration gap;
        final BlockingQueue<Long> passes = new LinkedBlockingQueue<>();
        final BlockingQueue<RuntimeException> failures = new LinkedBlockingQueue<>();

        RecordingLoop(Duration period, Duration gap) {
            this.period = period;
            this.gap = gap;
        }

        @Override
        protected void pass() {
            passes.add(System.nanoTime());
            RuntimeException next = failures.poll();
            if (next != null) {
                throw next;
            }
        }

        @Override
        protected Duration period() {
            return period;
        }

        @Override
        protected Duration minimumGap() {
            return gap;
        }

        long nextPass(long timeoutMillis) throws InterruptedException {
            Long at = passes.poll(timeoutMillis, TimeUnit.MILLISECONDS);
            assertNotNull(at, "no pass within " + timeoutMillis + " ms");
            return at;
        }
    }

    private RecordingLoop loop;

    @AfterEach
    void stopLoop() {
        if (loop != null) {
            loop.stop();
        }
    }

    @Test
    void aWakeUpRunsThePassBeforeThePeriodEnds() throws Exception {
        loop = new RecordingLoop(Duration.ofMinutes(1), Duration.ofMillis(1));
        loop.start("test-wake");
        loop.nextPass(5_000);
        assertNull(loop.passes.poll(200, TimeUnit.MILLISECONDS), "no pass before the period without a wake-up");
        loop.wake();
        loop.nextPass(5_000);
    }

    @Test
    void withoutWakeUpsAPassRunsEveryPeriod() throws Exception {
        loop = new RecordingLoop(Duration.ofMillis(100), Duration.ofMillis(1));
        loop.start("test-period");
        long first = loop.nextPass(5_000);
        long second = loop.nextPass(5_000);
        long third = loop.nextPass(5_000);
        assertTrue(second - first >= TimeUnit.MILLISECONDS.toNanos(90), "second pass came early: " + (second - first) + " ns");
        assertTrue(third - second >= TimeUnit.MILLISECONDS.toNanos(90), "third pass came early: " + (third - second) + " ns");
    }

    @Test
    void aBurstOfWakeUpsIsServedByOnePassAfterTheMinimumGap() throws Exception {
        loop = new RecordingLoop(Duration.ofMinutes(1), Duration.ofMillis(300));
        loop.start("test-gap");
        long first = loop.nextPass(5_000);
        for (int i = 0; i < 50; i++) {
            loop.wake();
        }
        long second = loop.nextPass(5_000);
        assertTrue(second - first >= TimeUnit.MILLISECONDS.toNanos(290), "passes closer than the minimum gap: "
                + (second - first) + " ns");
        assertNull(loop.passes.poll(600, TimeUnit.MILLISECONDS), "the burst of wake-ups ran more than one pass");
    }

    @Test
    void aFailureIsLoggedOncePerKindAndItsEndOnce() throws Exception {
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord r) {
                logged.add(r);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger log = Logger.getLogger(RecordingLoop.class.getName());
        log.addHandler(capture);
        try {
            loop = new RecordingLoop(Duration.ofMillis(10), Duration.ofMillis(1));
            for (int i = 0; i < 3; i++) {
                loop.failures.add(new IllegalStateException("database away"));
            }
            loop.failures.add(new IllegalArgumentException("bad row"));
            loop.start("test-failures");
            for (int i = 0; i < 6; i++) {
                loop.nextPass(5_000);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (logged.size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            List<String> messages = logged.stream()
                    .map(r -> (r.getLevel().intValue() >= Level.WARNING.intValue() ? "warning " : "info ") + r.getMessage()).toList();
            assertEquals(List.of(
                    "warning test-failures: java.lang.IllegalStateException: database away (retrying every PT0.01S)",
                    "warning test-failures: java.lang.IllegalArgumentException: bad row (retrying every PT0.01S)",
                    "info test-failures works again"), messages);
        } finally {
            log.removeHandler(capture);
        }
    }

    @Test
    void stopEndsTheThread() throws Exception {
        loop = new RecordingLoop(Duration.ofMillis(10), Duration.ofMillis(1));
        loop.start("test-stop");
        loop.nextPass(5_000);
        Thread thread = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("test-stop"))
                .findFirst().orElseThrow();
        assertTrue(thread.isDaemon());
        loop.stop();
        thread.join(5_000);
        assertFalse(thread.isAlive());
        loop.passes.clear();
        assertNull(loop.passes.poll(100, TimeUnit.MILLISECONDS), "a pass ran after stop");
    }

    @Test
    void workerPoolThreadsAreNamedDaemons() throws Exception {
        ExecutorService pool = EngineLoop.workerPool("movers", 2);
        try {
            Future<Thread> t = pool.submit(Thread::currentThread);
            Thread worker = t.get(5, TimeUnit.SECONDS);
            assertTrue(worker.isDaemon());
            assertTrue(worker.getName().matches("movers-[12]"), worker.getName());
        } finally {
            pool.shutdownNow();
        }
    }
}
