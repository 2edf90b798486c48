package io.ferry.scheduler.engine;

import io.vertx.pgclient.PgException;
import org.junit.jupiter.api.Test;

import java.util.List;
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
