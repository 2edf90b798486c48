package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.Column;
import io.ferry.cli.output.OutputFormat;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;

/**
 * {@code ferry status JOB}: the job's header and its files. (Under the checkout's {@code ./ferry}, {@code status}
 * without a job id is the local stack's status.)
 */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show a job: its state and parameters, then a table of its files with sizes, throughput, retries and errors.",
        footer = {"", "Examples:", "  ferry status 0b5f5b1e-6c0a-4a43-9a55-7c1f0f0d3a8e", "  ferry status JOB -o json | jq '.files[].file_state'",
                "", "Under the checkout's ./ferry, `ferry status` with no job id tells whether the local stack is up."})
public final class JobStatusCommand extends FerryCommand {

    static final List<Column> JOB = List.of(Column.field("job", "job_id"), Column.field("state", "job_state"), Column.field("vo", "vo_name"),
            Column.field("user", "user_dn"), Column.field("submitted", "submit_time"), Column.field("finished", "job_finished"),
            Column.field("priority", "priority"), Column.field("source se", "source_se"), Column.field("destination se", "dest_se"),
            Column.field("verify checksum", "verify_checksum"), Column.field("retry", "retry"), Column.field("deadline", "deadline"),
            Column.field("sync level", "sync_level"), Column.rate("max rate", "max_rate"), Column.field("reason", "reason"),
            Column.field("metadata", "job_metadata"));

    static final List<Column> FILES = List.of(Column.field("FILE", "file_id"), Column.field("STATE", "file_state"),
            Column.field("SOURCE", "source_surl"), Column.field("DESTINATION", "dest_surl"), Column.bytes("SIZE", "filesize"),
            Column.bytes("MOVED", "bytes_transferred"), Column.rate("RATE", "throughput_bytes_per_s"), Column.field("RETRY", "retry"),
            Column.field("ERROR", "error_code"), Column.field("REASON", "reason"));

    @Parameters(index = "0", paramLabel = "JOB", description = "job id")
    String job;

    @Override
    public Integer call() {
        FerryHttp scheduler = global().scheduler();
        JsonNode header = scheduler.get("/jobs/" + FerryHttp.segment(job));
        JsonNode files = scheduler.get("/jobs/" + FerryHttp.segment(job) + "/files");
        OutputFormat format = global().output();
        if (format == OutputFormat.JSON || format == OutputFormat.YAML) {
            ObjectNode both = JsonNodeFactory.instance.objectNode();
            both.set("job", header);
            both.set("files", files);
            printer().document(both);
            return 0;
        }
        if (format == OutputFormat.TSV) {
            printer().rows(files, FILES);
            return 0;
        }
        printer().record(header, JOB);
        out.println();
        printer().rows(files, FILES);
        return 0;
    }
}
