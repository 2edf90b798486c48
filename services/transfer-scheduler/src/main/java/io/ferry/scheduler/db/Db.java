package io.ferry.scheduler.db;

import java.time.Duration;

/** How long the scheduler waits for PostgreSQL: the one bound on a statement's or a transaction's answer. */
public final class Db {

    public static final Duration WAIT = Duration.ofSeconds(30);

    private Db() {
    }
}
