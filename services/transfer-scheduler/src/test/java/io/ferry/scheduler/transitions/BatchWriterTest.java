package io.ferry.scheduler.transitions;

import io.vertx.pgclient.PgException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A batch PostgreSQL rolled back to break a deadlock is written again; any other failure reaches the callers. */
class BatchWriterTest {

    static final PgException DEADLOCK = new PgException("deadlock detected", "ERROR", "40P01", null);

    @Test
    void batchRolledBackByDeadlockIsWrittenAgain() {
        int writes = writesFor(n -> {
            if (n == 1) {
                throw new RuntimeException(DEADLOCK);
            }
            return List.of(true);
        }, w -> assertTrue(w.submit("file 1"), "the change applied on the second write"));
        assertEquals(2, writes);
    }

    @Test
    void otherFailuresAreNotRetried() {
        int writes = writesFor(n -> {
            throw new PgException("value too long", "ERROR", "22001", null);
        }, w -> assertThrows(PgException.class, () -> w.submit("file 1")));
        assertEquals(1, writes);
    }

    @Test
    void deadlocksThatPersistFailTheBatchAfterFiveWrites() {
        int writes = writesFor(n -> {
            throw DEADLOCK;
        }, w -> assertThrows(PgException.class, () -> w.submit("file 1")));
        assertEquals(5, writes);
    }

    @Test
    void eachUnitIsWrittenAndRetriedOnItsOwn() throws Exception {
        Map<String, AtomicInteger> writesOf = new ConcurrentHashMap<>();
        CountDownLatch firstTaken = new CountDownLatch(1);
        CountDownLatch rest = new CountDownLatch(1);
        BatchWriter<String> writer = new BatchWriter<>("test-writer", 10, value -> value.substring(0, 5), batch -> {
            String unit = batch.get(0).substring(0, 5);
            assertTrue(batch.stream().allMatch(v -> v.startsWith(unit)), "one unit per write: " + batch);
            int n = writesOf.computeIfAbsent(unit, k -> new AtomicInteger()).incrementAndGet();
            if (unit.equals("first")) {
                firstTaken.countDown();
                await(rest);
            }
            if (unit.equals("job-b") && n == 1) {
                throw new RuntimeException(DEADLOCK);
            }
            return batch.stream().map(v -> true).toList();
        });
        var first = new FutureTask<>(() -> writer.submit("first"));
        List<FutureTask<Boolean>> waiting = List.of("job-a 1", "job-b 1", "job-a 2").stream()
                .map(v -> new FutureTask<>(() -> writer.submit(v))).toList();
        try {
            new Thread(first).start();
            firstTaken.await();
            // these wait together behind the first write (each caller blocked in submit has queued its change), so the
            // next batch holds both jobs' changes
            List<Thread> callers = waiting.stream().map(Thread::new).toList();
            callers.forEach(Thread::start);
            while (!callers.stream().allMatch(t -> t.getState() == Thread.State.TIMED_WAITING)) {
                Thread.sleep(5);
            }
            rest.countDown();
            assertTrue(first.get());
            for (var w : waiting) {
                assertTrue(w.get(), "every change applied");
            }
            assertEquals(1, writesOf.get("job-a").get(), "job-a's changes written once, not again with job-b's retry");
            assertEquals(2, writesOf.get("job-b").get(), "job-b rolled back once, then written");
        } finally {
            writer.stop();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code check} against a writer whose n-th write does {@code write(n)}; answers how many writes ran. */
    static int writesFor(IntFunction<List<Boolean>> write, Consumer<BatchWriter<String>> check) {
        AtomicInteger writes = new AtomicInteger();
        BatchWriter<String> writer = new BatchWriter<>("test-writer", 10, batch -> write.apply(writes.incrementAndGet()));
        try {
            check.accept(writer);
            return writes.get();
        } finally {
            writer.stop();
        }
    }
}
