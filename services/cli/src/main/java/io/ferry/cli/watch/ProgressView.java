package io.ferry.cli.watch;

import io.ferry.cli.output.Units;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** The words and bars a watched job is shown with, the same on a terminal and in plain lines. */
public final class ProgressView {

    private static final int BAR = 30;

    private ProgressView() {
    }

    /** The live block of one job: header, files per state, bytes with a bar, throughput and ETA. */
    public static List<String> block(JobProgress p, Instant now) {
        List<String> lines = new ArrayList<>();
        lines.add("job " + p.jobId() + "  " + p.jobState() + "  " + Units.duration(p.elapsed(now)));
        int done = p.counts().getOrDefault("FINISHED", 0);
        lines.add("  files  " + counts(p.counts()) + "   (" + done + "/" + p.fileCount() + " done)");
        long total = p.bytesTotal();
        String bytes = Units.bytes(p.bytesDone()) + (total > 0 ? " / " + Units.bytes(total) : "");
        lines.add("  " + bar(p.bytesDone(), total, done, p.fileCount()) + "  " + bytes + "  " + Units.rate(p.throughput(now))
                + p.eta(now).map(d -> "  ETA " + Units.duration(d)).orElse(""));
        return lines;
    }

    /** One line of the job's state, for output that is not a terminal. */
    public static String line(JobProgress p, Instant now) {
        long total = p.bytesTotal();
        return "job " + p.jobId() + " " + p.jobState() + ": " + counts(p.counts()) + "; "
                + Units.bytes(p.bytesDone()) + (total > 0 ? " of " + Units.bytes(total) : "") + ", " + Units.rate(p.throughput(now))
                + (p.over() ? " in " + Units.duration(p.elapsed(now)) : p.eta(now).map(d -> ", ETA " + Units.duration(d)).orElse(""));
    }

    public static String failure(String jobId, JobProgress.Failure f) {
        return "FAILED  job " + jobId + " file " + f.fileId() + "  " + f.source() + " -> " + f.destination()
                + "  [" + (f.errorCode().isEmpty() ? "no error code" : f.errorCode()) + "] " + f.reason();
    }

    static String counts(Map<String, Integer> counts) {
        return counts.isEmpty() ? "no files yet" : counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).collect(Collectors.joining("  "));
    }

    /** Bytes when sizes are known, else files done. */
    static String bar(long done, long total, int filesDone, int files) {
        double fraction = total > 0 ? (double) done / total : files > 0 ? (double) filesDone / files : 0;
        int full = (int) Math.round(Math.min(1, Math.max(0, fraction)) * BAR);
        return "[" + "#".repeat(full) + ".".repeat(BAR - full) + "] " + String.format("%3d%%", (int) Math.floor(Math.min(1, fraction) * 100));
    }
}
