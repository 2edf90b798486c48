package io.ferry.cli;

import io.ferry.cli.client.ApiProblem;
import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.command.AltoCommand;
import io.ferry.cli.command.CancelCommand;
import io.ferry.cli.command.CompletionCommand;
import io.ferry.cli.command.CostCommand;
import io.ferry.cli.command.HandleCommand;
import io.ferry.cli.command.JobStatusCommand;
import io.ferry.cli.command.LinkCommand;
import io.ferry.cli.command.LsCommand;
import io.ferry.cli.command.ProbeCommand;
import io.ferry.cli.command.ResolveCommand;
import io.ferry.cli.command.ResubmitCommand;
import io.ferry.cli.command.RetriesCommand;
import io.ferry.cli.command.SeCommand;
import io.ferry.cli.command.ShareCommand;
import io.ferry.cli.command.SubmitCommand;
import io.ferry.cli.command.WatchCommand;
import io.ferry.cli.command.WebhookCommand;
import io.ferry.cli.command.WhoamiCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.Console;
import java.io.PrintWriter;

/**
 * {@code ferry}: the command for people, over the services' REST APIs. Exit status 0 when all went well, 1 when a
 * service refused or a watched job had failed files, 2 for a command line it cannot read, 3 when a service cannot
 * be reached.
 */
@Command(name = "ferry", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        description = "Submit, watch and inspect Ferry transfers; resolve handles; administer SEs, links and shares.",
        subcommands = {WhoamiCommand.class, SubmitCommand.class, WatchCommand.class, JobStatusCommand.class, LsCommand.class,
                CancelCommand.class, RetriesCommand.class, ResubmitCommand.class, ResolveCommand.class, CostCommand.class, AltoCommand.class,
                SeCommand.class, LinkCommand.class, ShareCommand.class, WebhookCommand.class, ProbeCommand.class, HandleCommand.class, CompletionCommand.class},
        footer = {"", "Examples:",
                "  ferry whoami",
                "  ferry submit https://se-a.example/f1 https://se-b.example/f1 --checksum adler32:0a1b2c3d --wait",
                "  ferry submit -f list.txt --activity 'Data Consolidation' --max-time-in-queue 12h",
                "  ferry watch 0b5f...", "  ferry ls --state FAILED --since 6h -o json",
                "", "Credentials: --token, $BEARER_TOKEN, $BEARER_TOKEN_FILE, $XDG_RUNTIME_DIR/bt_u$UID, /tmp/bt_u$UID;"
                + " else an X.509 proxy (--proxy, $X509_USER_PROXY, /tmp/x509up_u$UID) against the scheduler's HTTPS port.",
                "Endpoints: flags, FERRY_SCHEDULER_URL (FERRY_SCHEDULER_HTTPS_URL, FERRY_RESOLVER_URL, FERRY_AGGREGATOR_URL,"
                + " FERRY_PROFILES_URL), ~/.config/ferry/config.toml ([endpoints] scheduler = \"https://...\").",
                "Exit status: 0 ok, 1 refused by a service or files failed, 2 bad command line, 3 service unreachable."})
public final class Main {

    public static final int REFUSED = 1;
    public static final int USAGE = 2;
    public static final int UNREACHABLE = 3;

    @CommandLine.Mixin
    GlobalOptions global;

    public GlobalOptions globalOptions() {
        return global;
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs one command line and answers its exit status (what {@code io.ferry.stack.FerryCli} delegates to). */
    public static int run(String... args) {
        CommandLine cli = commandLine();
        return cli.execute(args);
    }

    public static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler(Main::failed);
        cli.setCaseInsensitiveEnumValuesAllowed(true);
        // examples are command lines: wide enough not to break them, narrower when the terminal is
        cli.setUsageHelpWidth(120);
        cli.setUsageHelpAutoWidth(onTerminal());
        return cli;
    }

    /**
     * Whether the output goes to a terminal: only then is its width asked for, because picocli asks by running
     * {@code stty}, which costs a script's {@code ferry --help} more than the rest of the command.
     */
    static boolean onTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            // Java 22 and later give a console also to redirected streams and say with isTerminal() what it is
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException olderJava) {
            return true;
        }
    }

    /** A failure as one line on stderr, with its exit status; a stack trace only with {@code FERRY_DEBUG} set. */
    private static int failed(Exception e, CommandLine cmd, CommandLine.ParseResult parsed) {
        PrintWriter err = cmd.getErr();
        String name = cmd.getCommandSpec().qualifiedName(" ");
        int code;
        String message;
        if (e instanceof ApiProblem p) {
            code = REFUSED;
            message = p.getMessage();
        } else if (e instanceof FerryHttp.ServiceUnreachable u) {
            code = UNREACHABLE;
            message = u.getMessage();
        } else if (e instanceof IllegalArgumentException) {
            code = USAGE;
            message = e.getMessage();
        } else {
            code = REFUSED;
            message = e.toString();
        }
        err.println(name + ": " + message);
        if (System.getenv("FERRY_DEBUG") != null) {
            e.printStackTrace(err);
        }
        err.flush();
        return code;
    }

    /** The version of the jar's manifest, or "development" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Main.class.getPackage().getImplementationVersion();
            return new String[]{"ferry " + (v == null ? "development" : v)};
        }
    }
}
