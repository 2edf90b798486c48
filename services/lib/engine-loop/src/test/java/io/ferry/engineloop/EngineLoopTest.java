package io.ferry.engineloop;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
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
    static class RecordingLoop extends EngineLoop {
        final Duration period;
        final Duration gap;
        String name = "test-loop";
        boolean enabled = true;
        final List<String> lifecycle = new CopyOnWriteArrayList<>();
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

        @Override
        public String name() {
            return name;
        }

        @Override
        protected boolean enabled() {
            return enabled;
        }

        @Override
        protected void beforeStart() {
            lifecycle.add("beforeStart");
        }

        @Override
        protected void afterStop() {
            lifecycle.add("afterStop");
        }

        RecordingLoop named(String n) {
            name = n;
            return this;
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
        loop = new RecordingLoop(Duration.ofMinutes(1), Duration.ofMillis(1)).named("test-wake");
        loop.start();
        loop.nextPass(5_000);
        assertNull(loop.passes.poll(200, TimeUnit.MILLISECONDS), "no pass before the period without a wake-up");
        loop.wake();
        loop.nextPass(5_000);
    }

    @Test
    void withoutWakeUpsAPassRunsEveryPeriod() throws Exception {
        loop = new RecordingLoop(Duration.ofMillis(100), Duration.ofMillis(1)).named("test-period");
        loop.start();
        long first = loop.nextPass(5_000);
        long second = loop.nextPass(5_000);
        long third = loop.nextPass(5_000);
        assertTrue(second - first >= TimeUnit.MILLISECONDS.toNanos(90), "second pass came early: " + (second - first) + " ns");
        assertTrue(third - second >= TimeUnit.MILLISECONDS.toNanos(90), "third pass came early: " + (third - second) + " ns");
    }

    @Test
    void aBurstOfWakeUpsIsServedByOnePassAfterTheMinimumGap() throws Exception {
        loop = new RecordingLoop(Duration.ofMinutes(1), Duration.ofMillis(300)).named("test-gap");
        loop.start();
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
            loop = new RecordingLoop(Duration.ofMillis(10), Duration.ofMillis(1)).named("test-failures");
            for (int i = 0; i < 3; i++) {
                loop.failures.add(new IllegalStateException("database away"));
            }
            loop.failures.add(new IllegalArgumentException("bad row"));
            loop.start();
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
        loop = new RecordingLoop(Duration.ofMillis(10), Duration.ofMillis(1)).named("test-stop");
        loop.start();
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
    void aDisabledLoopDoesNotStart() throws Exception {
        loop = new RecordingLoop(Duration.ofMillis(10), Duration.ofMillis(1)).named("test-disabled");
        loop.enabled = false;
        assertFalse(loop.start());
        assertFalse(loop.running());
        assertNull(loop.passes.poll(100, TimeUnit.MILLISECONDS), "a disabled loop ran a pass");
        loop.stop();
        assertEquals(List.of(), loop.lifecycle);
    }

    @Test
    void theHeartbeatAndTheListenersSeeEveryPass() throws Exception {
        loop = new RecordingLoop(Duration.ofMillis(10), Duration.ofMillis(1)).named("test-heartbeat");
        assertEquals(new Heartbeat(0, 0, null), loop.heartbeat());
        BlockingQueue<String> heard = new LinkedBlockingQueue<>();
        loop.addListener((l, nanos, failure) -> heard.add(l.name() + " " + (nanos >= 0) + " " + (failure == null ? "ok" : failure.getMessage())));
        loop.failures.add(new IllegalStateException("database away"));
        loop.start();
        assertEquals("test-heartbeat true database away", heard.poll(5, TimeUnit.SECONDS));
        assertEquals("test-heartbeat true ok", heard.poll(5, TimeUnit.SECONDS));
        Heartbeat h = loop.heartbeat();
        assertTrue(h.passes() >= 2, h.toString());
        assertEquals(1, h.failures());
        assertNotNull(h.lastPassEnded());
    }

    @Test
    void stopDrainsTheWorkerPoolsThenRunsAfterStop() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        BlockingQueue<String> ended = new LinkedBlockingQueue<>();
        loop = new RecordingLoop(Duration.ofMinutes(1), Duration.ofMillis(1)) {
            final WorkerPool workers = workerPool("drain-worker", 1, 2);

            @Override
            protected Duration drainGrace() {
                return Duration.ofSeconds(5);
            }

            @Override
            protected void pass() {
                workers.submit(() -> {
                    try {
                        release.await();
                        ended.add("task");
                    } catch (InterruptedException e) {
                        ended.add("interrupted");
                    }
                });
                // the pass is seen (nextPass returns) only once its task is in flight: seen before, stop() could
                // drain the pool before the task was handed over
                super.pass();
            }
        }.named("test-drain");
        loop.start();
        loop.nextPass(5_000);
        new Thread(() -> {
            sleep(200);
            release.countDown();
        }).start();
        loop.stop();
        assertEquals("task", ended.poll(0, TimeUnit.SECONDS), "stop returned before the task in flight ended");
        assertEquals(List.of("beforeStart", "afterStop"), loop.lifecycle);
        assertFalse(loop.running());
    }

    @Test
    void workerPoolThreadsAreNamedDaemons() throws Exception {
        WorkerPool pool = new WorkerPool("movers", 2, 2);
        try {
            BlockingQueue<Thread> t = new LinkedBlockingQueue<>();
            pool.submit(() -> t.add(Thread.currentThread()));
            Thread worker = t.poll(5, TimeUnit.SECONDS);
            assertNotNull(worker);
            assertTrue(worker.isDaemon());
            assertTrue(worker.getName().matches("movers-[12]"), worker.getName());
        } finally {
            pool.shutdown(Duration.ZERO);
        }
    }

    @Test
    void aTaskHoldsItsSlotUntilItEndsAndItsFollowUpFindsItFree() throws Exception {
        WorkerPool pool = new WorkerPool("slots", 1, 3);
        CountDownLatch release = new CountDownLatch(1);
        BlockingQueue<String> followUps = new LinkedBlockingQueue<>();
        try {
            assertEquals(3, pool.free());
            pool.submit(() -> {
                await(release);
                return "first";
            }, answer -> followUps.add(answer + " free " + pool.free()));
            pool.submit(() -> {
                throw new IllegalStateException("failed task");
            }, answer -> followUps.add(answer + " free " + pool.free()));
            assertEquals(1, pool.free());
            assertEquals(2, pool.inFlight());
            release.countDown();
            assertEquals("first free 2", followUps.poll(5, TimeUnit.SECONDS));
            assertEquals("null free 3", followUps.poll(5, TimeUnit.SECONDS), "a task that threw still frees its slot");
        } finally {
            pool.shutdown(Duration.ZERO);
        }
    }

    @Test
    void shutdownInterruptsWhatOutlivesTheGrace() throws Exception {
        WorkerPool pool = new WorkerPool("grace", 1, 1);
        BlockingQueue<String> ended = new LinkedBlockingQueue<>();
        pool.submit(() -> {
            try {
                Thread.sleep(60_000);
                ended.add("slept");
            } catch (InterruptedException e) {
                ended.add("interrupted");
            }
        });
        long start = System.nanoTime();
        assertFalse(pool.shutdown(Duration.ofMillis(200)));
        assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(190), "the grace was not waited for");
        assertEquals("interrupted", ended.poll(5, TimeUnit.SECONDS));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
