package io.ferry.scheduler;

import io.ferry.scheduler.fts3.Fts3ClientPaths;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;

/**
 * Starts the scheduler with Quarkus's request-URI check off, before Quarkus's HTTP layer is loaded (it reads the
 * switch once); {@link Fts3ClientPaths} makes the check itself, after folding the FTS3 client's leading {@code //}.
 */
@QuarkusMain
public class SchedulerMain {

    public static void main(String... args) {
        System.setProperty(Fts3ClientPaths.DISABLE_QUARKUS_URI_CHECK, "true");
        Quarkus.run(args);
    }
}
