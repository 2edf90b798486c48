package io.ferry.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.cli.client.FerryHttp;
import io.ferry.cli.output.OutputFormat;
import io.ferry.cli.transfer.Checksums;
import io.ferry.cli.transfer.Deadlines;
import io.ferry.cli.transfer.DirectoryEntry;
import io.ferry.cli.transfer.Intervals;
import io.ferry.cli.transfer.Sizes;
import io.ferry.cli.transfer.SubmitOptions;
import io.ferry.cli.transfer.SyncLevels;
import io.ferry.cli.transfer.TransferList;
import io.ferry.cli.transfer.Webhooks;
import io.ferry.cli.watch.JobWatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** {@code ferry submit}: one transfer, or a list from a file or stdin, split into jobs of at most the scheduler's limit. */
@Command(name = "submit", mixinStandardHelpOptions = true,
        description = {"Submit a transfer (SRC DST) or a list of them (-f FILE, - for stdin).",
                "A list is FTS3's JSON bulk format ({\"Files\": [{\"sources\": [...], \"destinations\": [...]}]}) or lines of"
                        + " SRC DST [SIZE] [CHECKSUM]. Sources may be logical names: handle:PREFIX/SUFFIX, lfn:/path, did:scope:name,"
                        + " guid:..., resolved by the scheduler at submission."},
        footer = {"", "Examples:",
                "  ferry submit https://se-a.example/data/f1 https://se-b.example/data/f1 --checksum adler32:0a1b2c3d",
                "  ferry submit handle:21.T12345/run-42 https://se-b.example/run-42.dat --wait",
                "  ferry submit -f list.txt --activity 'Data Consolidation' --retry 3 --max-time-in-queue 12h",
                "  ferry submit -f backlog.txt --max-rate 50MB/s",
                "  sed 's|.*|https://a.example/& https://b.example/&|' names.txt | ferry submit -f -",
                "  ferry submit -f bulk.json --dry-run",
                "  ferry submit -r davs://se-a.example/run/ davs://se-b.example/run/ --include '*.root' --exclude 'tmp/*'"})
public final class SubmitCommand extends FerryCommand {

    /** The scheduler's limit of files per job (Submission.MAX_FILES). */
    static final int SCHEDULER_FILES_PER_JOB = 10_000;

    @Parameters(arity = "0..2", paramLabel = "SRC DST", description = "source and destination URL (or logical source)")
    List<String> pair = new ArrayList<>();

    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "list of transfers; - reads stdin")
    String file;

    @Option(names = "--checksum", paramLabel = "ALG:HEX", description = "the file's checksum, adler32:HEX or md5:HEX (SRC DST form)")
    String checksum;

    @Option(names = "--filesize", paramLabel = "SIZE", description = "the file's size, bytes or e.g. 10GB (SRC DST form)")
    String filesize;

    @Option(names = "--overwrite", description = "replace an existing destination file")
    boolean overwrite;

    @Option(names = "--sync", paramLabel = "LEVEL",
            description = "copy only what is not already at the destination: exists, size, mtime or checksum (0-3); what differs is replaced")
    String sync;

    @Option(names = "--webhook", paramLabel = "URL", description = "https URL the scheduler POSTs a signed event to when the job ends (its host allowed for the VO)")
    String webhook;

    @Option(names = "--webhook-file-failures", description = "with --webhook: also an event for each file that fails for good")
    boolean webhookFileFailures;

    @Option(names = "--retry", paramLabel = "N", description = "retries per file after a failure")
    Integer retry;

    @Option(names = "--retry-delay", paramLabel = "SECONDS", description = "seconds between retries")
    Integer retryDelay;

    @Option(names = "--priority", paramLabel = "1-5", description = "job priority, 1 lowest to 5 highest (default 3)")
    Integer priority;

    @Option(names = "--activity", paramLabel = "NAME", description = "the activity of the files (their VO's activity shares)")
    String activity;

    @Option(names = {"-K", "--verify-checksum"}, paramLabel = "MODE", arity = "0..1", fallbackValue = "both",
            description = "verify checksums: both (when given alone), source, target or none")
    String verifyChecksum;

    @Option(names = "--max-time-in-queue", paramLabel = "INTERVAL", description = "give up on files still queued after this, e.g. 12h, 2d")
    String maxTimeInQueue;

    @Option(names = "--deadline", paramLabel = "WHEN", description = "cancel what is unfinished then: a time (2026-12-07T18:00:00Z) or an interval from now (2h); nearer deadlines go first")
    String deadline;

    @Option(names = "--max-rate", paramLabel = "RATE", description = "cap the job's average rate over all its files: bytes/s, or e.g. 50MB/s, 1Gbit/s, 512KiB/s (100KB/s to 100GB/s)")
    String maxRate;

    @Option(names = "--scitag", paramLabel = "N", description = "SciTag flow label of the files (65-65535: experiment id << 6 | activity id), sent to the SEs as the SciTag header")
    Integer scitag;

    @Option(names = "--job-metadata", paramLabel = "JSON", description = "metadata kept with the job (JSON, or text)")
    String jobMetadata;

    @Option(names = "--sid", paramLabel = "SID", description = "deterministic job id from this sid (re-submitting the same sid names the same job)")
    String sid;

    @Option(names = "--max-files-per-job", paramLabel = "N", description = "split longer lists into several jobs (default: the scheduler's limit, 10000)")
    int maxFilesPerJob = SCHEDULER_FILES_PER_JOB;

    @Option(names = {"-r", "--recursive"}, description = "SRC/ and DST/ are directories: the scheduler lists SRC/ and copies its tree to DST/")
    boolean recursive;

    @Option(names = "--include", paramLabel = "GLOB", description = "with -r: copy only files matching (a glob without / matches names)")
    List<String> include = new ArrayList<>();

    @Option(names = "--exclude", paramLabel = "GLOB", description = "with -r: leave out files matching (e.g. 'tmp/*', '*.log')")
    List<String> exclude = new ArrayList<>();

    @Option(names = "--max-files", paramLabel = "N", description = "with -r: refuse a tree of more files than this (default 10000)")
    Integer maxFiles;

    @Option(names = "--dry-run", description = "print the body(ies) that would be sent, send nothing")
    boolean dryRun;

    @Option(names = {"-w", "--wait"}, description = "then watch the job(s) until they end; exit status 1 if a file failed")
    boolean await;

    @Option(names = "--plain", description = "with --wait: plain lines even on a terminal")
    boolean plain;

    @Override
    public Integer call() throws IOException {
        List<ObjectNode> files = files();
        if (maxTimeInQueue != null) {
            Intervals.parse(maxTimeInQueue);
        }
        SubmitOptions options = new SubmitOptions(overwrite, retry, retryDelay, priority, activity, verifyChecksum, maxTimeInQueue, jobMetadata, sid, scitag,
                deadline == null ? null : Deadlines.resolve(deadline, Instant.now()), maxRate);
        List<ObjectNode> bodies = options.bodies(files, Math.min(maxFilesPerJob, SCHEDULER_FILES_PER_JOB));
        if (recursive) {
            new DirectoryEntry(include, exclude, maxFiles).applyToJob(bodies.get(0));
        }
        SyncLevels.apply(bodies, sync == null ? null : SyncLevels.parse(sync));
        Webhooks.apply(bodies, webhook == null ? null : Webhooks.check(webhook), webhookFileFailures);
        if (dryRun) {
            printer().document(bodies.size() == 1 ? bodies.get(0) : TransferList.array(bodies));
            return 0;
        }
        FerryHttp scheduler = global().scheduler();
        List<String> jobs = new ArrayList<>();
        for (ObjectNode body : bodies) {
            JsonNode answer;
            try {
                answer = scheduler.post("/jobs", body);
            } catch (RuntimeException e) {
                if (!jobs.isEmpty()) {
                    System.err.println("ferry submit: submitted before the failure: " + String.join(" ", jobs));
                }
                throw e;
            }
            jobs.add(answer.path("job_id").asText());
        }
        report(jobs, bodies);
        if (!await) {
            return 0;
        }
        return JobWatch.watch(scheduler, jobs, !plain && global().output() == OutputFormat.TABLE && System.console() != null, out);
    }

    private void report(List<String> jobs, List<ObjectNode> bodies) {
        if (global().output() == OutputFormat.TABLE) {
            for (int i = 0; i < jobs.size(); i++) {
                out.println(jobs.get(i) + "  (" + bodies.get(i).path("files").size() + " file" + (bodies.get(i).path("files").size() == 1 ? "" : "s") + ")");
            }
            return;
        }
        ArrayNode rows = JsonNodeFactory.instance.arrayNode();
        for (int i = 0; i < jobs.size(); i++) {
            rows.addObject().put("job_id", jobs.get(i)).put("files", bodies.get(i).path("files").size());
        }
        printer().rows(rows, List.of(io.ferry.cli.output.Column.field("job_id", "job_id"), io.ferry.cli.output.Column.field("files", "files")));
    }

    private List<ObjectNode> files() throws IOException {
        if (file != null) {
            if (!pair.isEmpty() || checksum != null || filesize != null || recursive) {
                throw new IllegalArgumentException("give either SRC DST (with --checksum, --filesize) or -f FILE, not both");
            }
            String text = file.equals("-") ? new String(System.in.readAllBytes(), StandardCharsets.UTF_8) : Files.readString(Path.of(file));
            List<ObjectNode> files = TransferList.parse(text);
            if (files.isEmpty()) {
                throw new IllegalArgumentException("the list " + (file.equals("-") ? "on stdin" : file) + " has no transfers");
            }
            return files;
        }
        if (pair.size() != 2) {
            throw new IllegalArgumentException("give SRC DST, or -f FILE (- for stdin); see ferry submit --help");
        }
        ObjectNode one = TransferList.file(pair.get(0), pair.get(1), filesize == null ? null : Sizes.parse(filesize),
                checksum == null ? null : Checksums.normalise(checksum));
        if (recursive) {
            new DirectoryEntry(include, exclude, maxFiles).applyTo(one);
        } else if (!include.isEmpty() || !exclude.isEmpty() || maxFiles != null) {
            throw new IllegalArgumentException("--include, --exclude and --max-files filter a directory copy (-r SRC/ DST/)");
        }
        return List.of(one);
    }
}
