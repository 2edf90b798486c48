package io.ferry.scheduler.db;

import io.vertx.pgclient.PgException;

import java.util.Set;

/**
 * Failures after which the same transaction may simply run again: PostgreSQL rolled it back to break a deadlock
 * (40P01) or a serialization conflict (40001). Nothing it did was kept, so a retry cannot apply a change twice.
 */
public final class TransientSqlErrors {

    private static final Set<String> STATES = Set.of("40P01", "40001");

    private TransientSqlErrors() {
    }

    public static boolean isTransient(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof PgException pg && STATES.contains(pg.getSqlState())) {
                return true;
            }
        }
        return false;
    }
}
