package io.ferry.cli.command;

import io.ferry.cli.Main;
import picocli.CommandLine;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandLineTest {

    @Test
    void everyCommandsHelpHasExamples() {
        List<String> without = new ArrayList<>();
        collect(Main.commandLine(), without);
        assertEquals(List.of(), without, "commands whose --help has no examples");
    }

    private static void collect(CommandLine cmd, List<String> without) {
        boolean nested = !cmd.getSubcommands().isEmpty() && cmd.getParent() != null;
        String help = cmd.getUsageMessage();
        // a group's examples (se, link, share, handle) cover its subcommands
        if (!help.contains("Examples:") && !(cmd.getParent() != null && cmd.getParent().getParent() != null)) {
            without.add(cmd.getCommandName());
        }
        if (nested || cmd.getParent() == null) {
            cmd.getSubcommands().values().forEach(c -> collect(c, without));
        }
    }

    @Test
    void verifyChecksumAloneMeansBothAndTakesAMode() {
        SubmitCommand alone = parse("submit", "a", "b", "--verify-checksum", "--wait");
        assertEquals("both", alone.verifyChecksum);
        assertTrue(alone.await);
        assertEquals("target", parse("submit", "a", "b", "-K", "target").verifyChecksum);
        assertNull(parse("submit", "a", "b").verifyChecksum);
    }

    @Test
    void globalOptionsGoBeforeOrAfterTheCommand() {
        CommandLine cli = Main.commandLine();
        cli.parseArgs("-o", "json", "ls", "--state", "FAILED,CANCELED");
        assertEquals("JSON", ((Main) cli.getCommand()).globalOptions().output().name());
        CommandLine after = Main.commandLine();
        CommandLine.ParseResult r = after.parseArgs("ls", "--state", "FAILED", "-o", "tsv", "--scheduler", "http://s.example");
        assertEquals("TSV", ((Main) after.getCommand()).globalOptions().output().name());
        assertEquals("http://s.example", ((Main) after.getCommand()).globalOptions().endpoints().scheduler());
        assertEquals(List.of("FAILED"), ((LsCommand) r.subcommand().commandSpec().userObject()).states);
    }

    @Test
    void aCommandLineItCannotReadExitsWith2() {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            assertEquals(Main.USAGE, Main.run("submit", "only-one"));
            assertEquals(Main.USAGE, Main.run("sumbit"));
        } finally {
            System.setErr(saved);
        }
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("ferry submit: give SRC DST, or -f FILE"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void probeAddSendsBytesAndSecondsFromWhatPeopleType() {
        var body = ProbeCommand.body("RAL", "CERN", "1GB", "1h30m", null, false);
        assertEquals("RAL", body.path("source_se").asText());
        assertEquals("CERN", body.path("dest_se").asText());
        assertEquals(1_000_000_000L, body.path("file_size").asLong());
        assertEquals(5400, body.path("interval_seconds").asLong());
        assertTrue(body.path("enabled").asBoolean());
        assertTrue(body.path("vo").isMissingNode(), "the scheduler's default VO (ops) unless one is given");
        var disabled = ProbeCommand.body("RAL", "CERN", "500MiB", "30m", "atlas", true);
        assertEquals(500L << 20, disabled.path("file_size").asLong());
        assertEquals("atlas", disabled.path("vo").asText());
        assertTrue(!disabled.path("enabled").asBoolean());
        assertEquals("7d", ProbeCommand.window(java.time.Duration.ofDays(7)));
        assertEquals("6h", ProbeCommand.window(java.time.Duration.ofHours(6)));
        assertEquals("90m", ProbeCommand.window(java.time.Duration.ofMinutes(90)));
        CommandLine cli = Main.commandLine();
        CommandLine.ParseResult r = cli.parseArgs("probe", "add", "A", "B", "--size", "1GB", "--every", "30m");
        assertEquals("add", r.subcommand().subcommand().commandSpec().name());
        String completion = new String(captured(() -> Main.run("completion", "bash")), StandardCharsets.UTF_8);
        assertTrue(completion.contains("probe"), "completion knows ferry probe");
        assertTrue(Main.commandLine().getSubcommands().get("probe").getUsageMessage().contains("ferry probe add"));
    }

    private static byte[] captured(Runnable run) {
        PrintStream saved = System.out;
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
            run.run();
        } finally {
            System.setOut(saved);
        }
        return buffer.toByteArray();
    }

    private static SubmitCommand parse(String... args) {
        CommandLine cli = Main.commandLine();
        return (SubmitCommand) cli.parseArgs(args).subcommand().commandSpec().userObject();
    }
}
