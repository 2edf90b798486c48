package io.ferry.scheduler.probes;


import java.time.OffsetDateTime;
import java.util.UUID;

/** One probe run: when, its job, outcome, bytes, throughput (bytes/s), duration, error, and the 12-hour average up to it. */
public record ProbeRunView(long run_id, Long probe_id, String source_se, String dest_se, OffsetDateTime started_at, UUID job_id, long file_size,
                           String outcome, OffsetDateTime finished_at, Long bytes_transferred, Double throughput_bytes_per_s,
                           Double duration_seconds, String error_code, String error, Double average_12h_bytes_per_s) {

    public static ProbeRunView of(ProbeRun r) {
        return r == null ? null : new ProbeRunView(r.runId(), r.probeId(), r.sourceSe(), r.destSe(), r.startedAt(), r.jobId(), r.fileSize(),
                r.outcome(), r.finishedAt(), r.bytesTransferred(), r.throughput(), r.durationSeconds(), r.errorCode(), r.error(), r.average12h());
    }
}
