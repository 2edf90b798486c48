package io.ferry.cli.command;

import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.Column;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;

/** {@code ferry retries JOB FILE}: the earlier attempts of a file that were retried. */
@Command(name = "retries", mixinStandardHelpOptions = true,
        description = "Show a file's earlier attempts: when, the error code, the phase and the reason of each failure.",
        footer = {"", "Examples:", "  ferry retries 0b5f5b1e-6c0a-4a43-9a55-7c1f0f0d3a8e 17"})
public final class RetriesCommand extends FerryCommand {

    @Parameters(index = "0", paramLabel = "JOB")
    String job;

    @Parameters(index = "1", paramLabel = "FILE", description = "file id (ferry status JOB lists them)")
    long file;

    @Override
    public Integer call() {
        printer().rows(global().scheduler().get("/jobs/" + FerryHttp.segment(job) + "/files/" + file + "/retries"),
                List.of(Column.field("ATTEMPT", "attempt"), Column.field("AT", "datetime"), Column.field("ERROR", "error_code"),
                        Column.field("PHASE", "error_phase"), Column.field("REASON", "reason")));
        return 0;
    }
}
