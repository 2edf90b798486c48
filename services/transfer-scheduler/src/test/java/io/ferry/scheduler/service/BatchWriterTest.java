package io.ferry.scheduler.service;

import io.vertx.pgclient.PgException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A batch PostgreSQL rolled back to break a deadlock is written again; any other failure reaches the callers. */
class BatchWriterTest {

    @Test
    void batchRolledBackByDeadlockIsWrittenAgain() {
        AtomicInteger writes = new AtomicInteger();
        BatchWriter<String> writer = new BatchWriter<>("test-writer", 10, batch -> {
            if (writes.incrementAndGet() == 1) {
                throw new RuntimeException(new PgException("deadlock detected", "ERROR", "40P01", null));
            }
            return batch.stream().map(v -> true).toList();
        });
        try {
            assertTrue(writer.submit("file 1"), "the change applied on the second write");
            assertEquals(2, writes.get());
        } finally {
            writer.stop();
        }
    }

    @Test
    void otherFailuresAreNotRetried() {
        AtomicInteger writes = new AtomicInteger();
        BatchWriter<String> writer = new BatchWriter<>("test-writer", 10, batch -> {
            writes.incrementAndGet();
            throw new PgException("value too long", "ERROR", "22001", null);
        });
        try {
            assertThrows(PgException.class, () -> writer.submit("file 1"));
            assertEquals(1, writes.get());
        } finally {
            writer.stop();
        }
    }

    @Test
    void deadlocksThatPersistFailTheBatchAfterFiveWrites() {
        AtomicInteger writes = new AtomicInteger();
        BatchWriter<String> writer = new BatchWriter<>("test-writer", 10, batch -> {
            writes.incrementAndGet();
            throw new PgException("deadlock detected", "ERROR", "40P01", null);
        });
        try {
            assertThrows(PgException.class, () -> writer.submit("file 1"));
            assertEquals(5, writes.get());
        } finally {
            writer.stop();
        }
    }
}
