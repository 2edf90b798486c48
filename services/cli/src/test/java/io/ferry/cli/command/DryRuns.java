package io.ferry.cli.command;

import io.ferry.cli.Main;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Runs the command in this JVM and answers what it printed; it must exit 0 (a {@code --dry-run} prints the body). */
final class DryRuns {

    private DryRuns() {
    }

    static String dryRun(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
            assertEquals(0, Main.run(args));
        } finally {
            System.setOut(saved);
        }
        return buffer.toString(StandardCharsets.UTF_8);
    }
}
