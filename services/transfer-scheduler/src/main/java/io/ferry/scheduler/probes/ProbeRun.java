package io.ferry.scheduler.probes;

import java.time.OffsetDateTime;
import java.util.UUID;

/**
 * One run of a probe ({@code probe_run}). {@code outcome}: RUNNING, FINISHED, FAILED, CANCELED, or NOT_STARTED (the
 * source could not be created; {@code error} says why). {@code average12h}: the mean throughput (bytes/s) of the
 * probe's finished runs in the 12 hours up to this one, as SONAR plotted it (null where the series is not read).
 */
public record ProbeRun(long runId, Long probeId, String sourceSe, String destSe, OffsetDateTime startedAt, UUID jobId, long fileSize,
                       String outcome, OffsetDateTime finishedAt, Long bytesTransferred, Double throughput, Double durationSeconds,
                       String errorCode, String error, Double average12h) {
}
