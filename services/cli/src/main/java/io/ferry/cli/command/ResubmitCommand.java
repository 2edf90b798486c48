package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.OutputFormat;
import io.ferry.cli.transfer.SubmitOptions;
import io.ferry.cli.transfer.SyncLevels;
import io.ferry.cli.transfer.TransferList;
import io.ferry.cli.watch.JobWatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code ferry resubmit --failed JOB}: a new job of a finished job's failed (and canceled) files, with its parameters. */
@Command(name = "resubmit", mixinStandardHelpOptions = true,
        description = "Submit again the files of a job that failed (with --canceled, also those canceled), with the job's parameters "
                + "(its sync level and rate cap included; not its deadline).",
        footer = {"", "Examples:", "  ferry resubmit --failed 0b5f5b1e-6c0a-4a43-9a55-7c1f0f0d3a8e --wait",
                "  ferry resubmit --failed JOB --dry-run -o json"})
public final class ResubmitCommand extends FerryCommand {

    @Parameters(index = "0", paramLabel = "JOB")
    String job;

    @Option(names = "--failed", required = true, description = "resubmit the failed files (the only selection today)")
    boolean failed;

    @Option(names = "--canceled", description = "also the canceled files")
    boolean canceled;

    @Option(names = "--dry-run", description = "print the body that would be sent, send nothing")
    boolean dryRun;

    @Option(names = {"-w", "--wait"}, description = "then watch the new job until it ends")
    boolean await;

    @Override
    public Integer call() {
        FerryHttp scheduler = global().scheduler();
        JsonNode header = scheduler.get("/jobs/" + FerryHttp.segment(job));
        Set<String> wanted = canceled ? Set.of("FAILED", "CANCELED") : Set.of("FAILED");
        List<ObjectNode> files = new ArrayList<>();
        for (JsonNode f : scheduler.get("/jobs/" + FerryHttp.segment(job) + "/files")) {
            if (wanted.contains(f.path("file_state").asText())) {
                ObjectNode file = TransferList.file(f.path("source_surl").asText(), f.path("dest_surl").asText(),
                        f.path("filesize").isNumber() ? f.path("filesize").asLong() : null,
                        f.path("checksum").isTextual() ? f.path("checksum").asText() : null);
                if (f.path("activity").isTextual()) {
                    file.put("activity", f.path("activity").asText());
                }
                if (f.path("scitag").isInt()) {
                    file.put("scitag", f.path("scitag").asInt());
                }
                files.add(file);
            }
        }
        if (files.isEmpty()) {
            out.println("job " + job + " has no " + String.join(" or ", wanted.stream().sorted().toList()).toLowerCase(java.util.Locale.ROOT) + " files");
            return 0;
        }
        JsonNode metadata = header.path("job_metadata");
        SubmitOptions options = new SubmitOptions(header.path("overwrite_flag").asBoolean(false), header.path("retry").asInt(0),
                header.path("retry_delay").asInt(0), header.path("priority").asInt(3), null,
                header.path("verify_checksum").isTextual() ? header.path("verify_checksum").asText() : null,
                header.path("max_time_in_queue").isNumber() ? header.path("max_time_in_queue").asText() + "s" : null,
                // a resubmission runs anew: the old job's deadline, likely passed, is not carried over
                metadata.isMissingNode() || metadata.isNull() ? null : metadata.toString(), null, null, null,
                header.path("max_rate").isIntegralNumber() ? header.path("max_rate").asText() : null);
        List<ObjectNode> bodies = options.bodies(files, SubmitCommand.SCHEDULER_FILES_PER_JOB);
        SyncLevels.apply(bodies, header.path("sync_level").isTextual() ? SyncLevels.parse(header.path("sync_level").asText()) : null);
        if (dryRun) {
            printer().document(bodies.size() == 1 ? bodies.get(0) : TransferList.array(bodies));
            return 0;
        }
        List<String> jobs = new ArrayList<>();
        for (ObjectNode body : bodies) {
            jobs.add(scheduler.post("/jobs", body).path("job_id").asText());
        }
        jobs.forEach(id -> out.println(id + "  (" + files.size() + " file" + (files.size() == 1 ? "" : "s") + " of " + job + ")"));
        return await ? JobWatch.watch(scheduler, jobs, global().output() == OutputFormat.TABLE && System.console() != null, out) : 0;
    }
}
