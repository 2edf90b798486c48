package io.ferry.dev;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A test server whose JVM died is stopped and its directory removed; the servers of live JVMs are not touched. */
class StaleTestServersTest {

    @Test
    void anAbandonedServerIsStoppedAndRemovedWhileALiveOneIsKept() throws Exception {
        Path parent = Files.createTempDirectory("stale-servers");
        Process deadJvm = new ProcessBuilder("true").start();
        deadJvm.waitFor(10, TimeUnit.SECONDS);
        // stands in for the postmaster of the abandoned directory
        Process postmaster = new ProcessBuilder("sleep", "60").start();
        Path abandoned = Files.createDirectories(parent.resolve("ferry-test-pg1/data"));
        Files.writeString(parent.resolve("ferry-test-pg1").resolve(StaleTestServers.OWNER), Long.toString(deadJvm.pid()));
        Files.writeString(abandoned.resolve("postmaster.pid"), postmaster.pid() + "\n" + abandoned + "\n");
        Path mine = Files.createDirectories(parent.resolve("ferry-test-pg2"));
        StaleTestServers.claim(mine);
        Path unknown = Files.createDirectories(parent.resolve("ferry-test-pg3"));

        assertEquals(1, StaleTestServers.clear(parent, "ferry-test-pg"));
        assertTrue(postmaster.waitFor(10, TimeUnit.SECONDS), "the abandoned server was stopped");
        assertFalse(Files.exists(parent.resolve("ferry-test-pg1")));
        assertTrue(Files.exists(mine), "a live JVM's server stays");
        assertTrue(Files.exists(unknown), "a directory without an owner is not ours to clear");
        Files.delete(parent.resolve("ferry-test-pg2").resolve(StaleTestServers.OWNER));
        Files.delete(mine);
        Files.delete(unknown);
        Files.delete(parent);
    }
}
