package io.ferry.dev;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Clears what test JVMs that ended without their shutdown hooks left behind (or with a hook that lost a race with
 * the embedded server's own, which the harness now waits out): each test PostgreSQL's directory names
 * the JVM that owns it ({@value #OWNER}); a directory whose owner is gone has its server stopped (a running
 * postmaster keeps 256 MB of shared memory, and a developer's machine gathered one per interrupted run) and is
 * deleted. Directories of running JVMs, and any without an owner file, are left alone.
 */
public final class StaleTestServers {

    static final String OWNER = "owner.pid";

    private StaleTestServers() {
    }

    /** Marks {@code dir} as this JVM's. */
    public static void claim(Path dir) throws IOException {
        Files.writeString(dir.resolve(OWNER), Long.toString(ProcessHandle.current().pid()));
    }

    /** Stops and deletes the abandoned {@code prefix*} directories under {@code parent}; answers how many. */
    public static int clear(Path parent, String prefix) {
        int cleared = 0;
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, prefix + "*")) {
            for (Path dir : dirs) {
                if (abandoned(dir)) {
                    stopServer(dir);
                    DirectoryTrees.delete(dir);
                    cleared++;
                }
            }
        } catch (IOException e) {
            // best effort: a directory that cannot be read is not ours to clear
        }
        return cleared;
    }

    private static boolean abandoned(Path dir) {
        Optional<Long> owner = firstNumber(dir.resolve(OWNER));
        return owner.isPresent() && ProcessHandle.of(owner.get()).map(p -> !p.isAlive()).orElse(true);
    }

    /**
     * Stops the postmaster of the data under {@code dir} (its pid is the first line of postmaster.pid) if it still
     * runs, and waits until it has: deleting a server's directory before it exits leaves it running (pg_ctl finds no
     * pid file) and lets it write its statistics back into a new directory.
     */
    static void stopServer(Path dir) {
        Optional<ProcessHandle> postmaster;
        try (Stream<Path> files = Files.walk(dir, 2)) {
            postmaster = files.filter(p -> p.getFileName().toString().equals("postmaster.pid")).findFirst()
                    .flatMap(StaleTestServers::firstNumber).flatMap(ProcessHandle::of);
        } catch (IOException e) {
            return;
        }
        postmaster.ifPresent(p -> {
            p.destroy();  // SIGTERM: a smart shutdown, and nobody is connected any more
            try {
                p.onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        });
    }

    private static Optional<Long> firstNumber(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.findFirst().map(String::trim).filter(s -> s.matches("\\d+")).map(Long::parseLong);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
