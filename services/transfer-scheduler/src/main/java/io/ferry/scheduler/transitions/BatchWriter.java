package io.ferry.scheduler.transitions;

import io.ferry.scheduler.db.Db;
import io.ferry.scheduler.db.TransientSqlErrors;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Gathers the same kind of state change from many threads and writes them together: for small files a transaction
 * per file costs more than moving the file. The changes waiting at once are written in one go per unit (all of them,
 * or those of one job each: see the constructors), each unit retried on its own, so a unit already written is never
 * written again. A caller waits until its change is committed (or refused by its guard), so nothing is acknowledged
 * before it is durable.
 */
public final class BatchWriter<T> {

    private static final Logger LOG = Logger.getLogger(BatchWriter.class);
    private static final int TRANSIENT_ATTEMPTS = 5;

    private record Item<T>(T value, CompletableFuture<Boolean> done) {
    }

    private final LinkedBlockingQueue<Item<T>> queue = new LinkedBlockingQueue<>();
    private final int maxBatch;
    private final Function<List<T>, List<Boolean>> write;
    private final Function<T, ?> unitOf;
    private final Thread thread;
    private volatile long lastWrittenNanos = System.nanoTime();

    /** @param write writes one batch in one transaction; answers, per item, whether it applied */
    public BatchWriter(String name, int maxBatch, Function<List<T>, List<Boolean>> write) {
        this(name, maxBatch, value -> Boolean.TRUE, write);
    }

    /**
     * @param unitOf the unit a change belongs to: the waiting changes of one unit are written together
     * @param write  writes the changes of one unit in one transaction; answers, per item, whether it applied
     */
    public BatchWriter(String name, int maxBatch, Function<T, ?> unitOf, Function<List<T>, List<Boolean>> write) {
        this.maxBatch = maxBatch;
        this.unitOf = unitOf;
        this.write = write;
        this.thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Writes {@code value} with whatever else is waiting; answers whether it applied. */
    public boolean submit(T value) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        queue.add(new Item<>(value, done));
        try {
            return done.get(Db.WAIT.toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the change was written", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("the change was not written in time", e);
        }
    }

    /**
     * When ({@link System#nanoTime}) the latest batch was written; read after {@link #submit} returns, it is no
     * earlier than the commit of the caller's change.
     */
    public long lastWrittenNanos() {
        return lastWrittenNanos;
    }

    public void stop() {
        thread.interrupt();
    }

    private void loop() {
        List<Item<T>> batch = new ArrayList<>();
        while (!Thread.currentThread().isInterrupted()) {
            try {
                batch.add(queue.take());
                queue.drainTo(batch, maxBatch - 1);
            } catch (InterruptedException e) {
                return;
            }
            Map<Object, List<Item<T>>> units = new LinkedHashMap<>();
            batch.forEach(item -> units.computeIfAbsent(unitOf.apply(item.value()), k -> new ArrayList<>()).add(item));
            for (List<Item<T>> unit : units.values()) {
                try {
                    List<Boolean> applied = writeRetryingTransient(unit.stream().map(Item::value).toList());
                    lastWrittenNanos = System.nanoTime();
                    for (int i = 0; i < unit.size(); i++) {
                        unit.get(i).done().complete(applied.get(i));
                    }
                } catch (RuntimeException e) {
                    LOG.debugf("a batch of %d change(s) failed: %s", unit.size(), e.toString());
                    unit.forEach(item -> item.done().completeExceptionally(e));
                } catch (InterruptedException e) {
                    batch.forEach(item -> item.done().completeExceptionally(e));
                    return;
                }
            }
            batch.clear();
        }
    }

    /**
     * A batch the database rolled back to break a deadlock is written again: its changes were not kept, and failing
     * them would fail files whose copy succeeded.
     */
    private List<Boolean> writeRetryingTransient(List<T> values) throws InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return write.apply(values);
            } catch (RuntimeException e) {
                if (attempt >= TRANSIENT_ATTEMPTS || !TransientSqlErrors.isTransient(e)) {
                    throw e;
                }
                LOG.debugf("a batch of %d change(s) was rolled back (%s); writing it again", values.size(), e.getMessage());
                Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L * attempt));
            }
        }
    }
}
