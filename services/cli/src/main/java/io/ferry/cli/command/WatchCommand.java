package io.ferry.cli.command;

import io.ferry.cli.watch.JobWatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;

/** {@code ferry watch JOB…}: live progress until the jobs end. */
@Command(name = "watch", mixinStandardHelpOptions = true,
        description = {"Follow jobs until they end: files per state, bytes done, throughput, ETA, and each failure with its error code and reason.",
                "Redrawn in place on a terminal, plain lines otherwise. Exit status 1 when a file failed or was canceled."},
        footer = {"", "Examples:", "  ferry watch 0b5f5b1e-6c0a-4a43-9a55-7c1f0f0d3a8e", "  ferry watch JOB1 JOB2 --plain | tee watch.log"})
public final class WatchCommand extends FerryCommand {

    @Parameters(arity = "1..*", paramLabel = "JOB", description = "job ids")
    List<String> jobs;

    @Option(names = "--plain", description = "plain lines even on a terminal")
    boolean plain;

    @Override
    public Integer call() {
        return JobWatch.watch(global().scheduler(), jobs, !plain && System.console() != null, out);
    }
}
