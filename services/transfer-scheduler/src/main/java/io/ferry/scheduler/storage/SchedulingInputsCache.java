package io.ferry.scheduler.storage;

import io.ferry.scheduler.db.Db;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.Set;

/**
 * Links, SEs and shares as the scheduling passes see them, read at most once a second: they change by admin action
 * or once per optimizer round, while the passes run many times a second.
 */
@ApplicationScoped
public class SchedulingInputsCache {

    static final long MAX_AGE_NANOS = 1_000_000_000L;

    final Pool pool;

    @Inject
    public SchedulingInputsCache(Pool pool) {
        this.pool = pool;
    }

    private volatile SchedulingInputs inputs;
    private volatile long loadedAt;

    public SchedulingInputs get() {
        return get(Set.of());
    }

    /** The inputs, read again now if they do not know one of {@code ses} (an SE registered since the last read). */
    public SchedulingInputs get(Set<String> ses) {
        SchedulingInputs current = inputs;
        if (current == null || System.nanoTime() - loadedAt > MAX_AGE_NANOS || !current.ses().keySet().containsAll(ses)) {
            current = pool.withConnection(SchedulingInputs::load).await().atMost(Db.WAIT);
            inputs = current;
            loadedAt = System.nanoTime();
        }
        return current;
    }
}
