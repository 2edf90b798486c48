package io.ferry.cli.watch;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What is known of one job while it is watched: each file's state (from its events, and from the files listing,
 * which also gives sizes, bytes moved and error codes), and the job's state. Bytes done count a finished file whole
 * and an active one by what it has moved; throughput is bytes done since watching began over the time since.
 */
public final class JobProgress {

    static final Set<String> TERMINAL_JOB = Set.of("FINISHED", "FAILED", "FINISHEDDIRTY", "CANCELED");
    static final Set<String> TERMINAL_FILE = Set.of("FINISHED", "FAILED", "CANCELED", "NOT_USED");

    /** A file's failure, as it is shown once. */
    public record Failure(long fileId, String source, String destination, String errorCode, String reason) {
    }

    private record FileRow(String state, String source, String destination, long size, long moved, String errorCode, String reason) {
    }

    private final String jobId;
    private final Instant started;
    private final Map<Long, FileRow> files = new LinkedHashMap<>();
    private final Map<Long, Boolean> failureShown = new LinkedHashMap<>();
    private String jobState = "SUBMITTED";
    private long bytesAtStart = -1;

    public JobProgress(String jobId, Instant started) {
        this.jobId = jobId;
        this.started = started;
    }

    public String jobId() {
        return jobId;
    }

    public String jobState() {
        return jobState;
    }

    /** One event of the job's stream: {@code {file_id, file_state, job_state, reason}}. */
    public void event(JsonNode e) {
        long id = e.path("file_id").asLong();
        FileRow old = files.getOrDefault(id, new FileRow("SUBMITTED", "", "", 0, 0, "", ""));
        String state = e.path("file_state").asText(old.state());
        String reason = e.path("reason").isTextual() ? e.path("reason").asText() : old.reason();
        files.put(id, new FileRow(state, old.source(), old.destination(), old.size(), old.moved(), old.errorCode(), reason));
        if (e.path("job_state").isTextual()) {
            jobState = e.path("job_state").asText();
        }
    }

    /** The job's files listing ({@code GET /jobs/{id}/files}). */
    public void files(JsonNode listing) {
        for (JsonNode f : listing) {
            long id = f.path("file_id").asLong();
            long size = f.path("filesize").asLong(0);
            String state = f.path("file_state").asText();
            long moved = state.equals("FINISHED") ? size : f.path("bytes_transferred").asLong(0);
            files.put(id, new FileRow(state, f.path("source_surl").asText(""), f.path("dest_surl").asText(""), size, moved,
                    f.path("error_code").asText(""), f.path("reason").asText("")));
        }
        if (bytesAtStart < 0) {
            bytesAtStart = bytesDone();
        }
    }

    /** The job itself ({@code GET /jobs/{id}}). */
    public void job(JsonNode job) {
        if (job.path("job_state").isTextual()) {
            jobState = job.path("job_state").asText();
        }
    }

    public boolean over() {
        return TERMINAL_JOB.contains(jobState) && !files.isEmpty() && files.values().stream().allMatch(f -> TERMINAL_FILE.contains(f.state()));
    }

    /** Files per state, in the order a transfer goes through them. */
    public Map<String, Integer> counts() {
        Map<String, Integer> c = new TreeMap<>((a, b) -> Integer.compare(order(a), order(b)) != 0 ? Integer.compare(order(a), order(b)) : a.compareTo(b));
        files.values().forEach(f -> c.merge(f.state(), 1, Integer::sum));
        return c;
    }

    private static int order(String state) {
        int i = List.of("SUBMITTED", "STAGING", "READY", "ACTIVE", "ARCHIVING", "FINISHED", "FAILED", "CANCELED", "NOT_USED").indexOf(state);
        return i < 0 ? 100 : i;
    }

    public int fileCount() {
        return files.size();
    }

    public long bytesDone() {
        return files.values().stream().mapToLong(FileRow::moved).sum();
    }

    /** The size of all files that have one (0 when none is known yet). */
    public long bytesTotal() {
        return files.values().stream().filter(f -> !f.state().equals("NOT_USED")).mapToLong(FileRow::size).sum();
    }

    public double throughput(Instant now) {
        double seconds = Math.max(0.001, Duration.between(started, now).toMillis() / 1000d);
        return Math.max(0, bytesDone() - Math.max(0, bytesAtStart)) / seconds;
    }

    /** Time left at the throughput so far; empty before anything has moved or when sizes are unknown. */
    public Optional<Duration> eta(Instant now) {
        double rate = throughput(now);
        long left = bytesTotal() - bytesDone();
        if (rate <= 0 || bytesTotal() == 0 || over()) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofSeconds((long) Math.ceil(Math.max(0, left) / rate)));
    }

    public Duration elapsed(Instant now) {
        return Duration.between(started, now);
    }

    /** Failures not reported yet (each is reported once, with its error code once the listing has it). */
    public List<Failure> newFailures() {
        List<Failure> out = new ArrayList<>();
        files.forEach((id, f) -> {
            if (f.state().equals("FAILED") && !failureShown.containsKey(id) && (!f.errorCode().isEmpty() || !f.source().isEmpty())) {
                failureShown.put(id, true);
                out.add(new Failure(id, f.source(), f.destination(), f.errorCode(), f.reason()));
            }
        });
        return out;
    }

    public boolean anyFailed() {
        return files.values().stream().anyMatch(f -> f.state().equals("FAILED") || f.state().equals("CANCELED"));
    }
}
