package io.ferry.scheduler.jobs;

import com.fasterxml.jackson.annotation.JsonRawValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.scheduler.fts3.Fts3Time;
import io.ferry.scheduler.queue.Job;
import io.ferry.scheduler.queue.TransferFile;
import io.ferry.scheduler.submission.MaxRate;
import io.ferry.scheduler.submission.SyncLevel;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.UUID;

/**
 * Jobs and files as FTS3's REST API names their fields, so FTS3 clients read them unchanged; times in FTS3's form
 * ({@link Fts3Time}). Jackson also turns them into trees outside any REST method's signature (a job with its files):
 * registered for reflection for the native executable.
 */
@RegisterForReflection(targets = {JobViews.JobView.class, JobViews.FileView.class})
public final class JobViews {

    private static final ObjectMapper JSON = new ObjectMapper();

    private JobViews() {
    }

    /**
     * Ferry's own fields, null when the job has none: {@code deadline}, the job's {@code params.deadline} in RFC 3339
     * (UTC); {@code sync_level} ({@code exists|size|mtime|checksum}) and {@code max_rate} (bytes/s) as its params set them.
     */
    public record JobView(UUID job_id, String job_state, String vo_name, String user_dn, String submit_time,
                          String job_finished, int priority, String reason, String source_se, String dest_se,
                          String verify_checksum, boolean overwrite_flag, int retry, int retry_delay, Integer max_time_in_queue,
                          Integer nostreams, @JsonRawValue String job_metadata, String cred_id, String job_type, String deadline,
                          String sync_level, Long max_rate) {
        public static JobView of(Job j) {
            JsonNode params = params(j.params);
            SyncLevel sync = SyncLevel.ofParams(params);
            return new JobView(j.jobId, j.state.name(), j.vo, j.userDn, Fts3Time.format(j.submittedAt), Fts3Time.format(j.finishedAt),
                    j.priority, j.reason, j.sourceSe, j.destSe, j.verifyChecksum, j.overwrite, j.retry, j.retryDelay, j.maxTimeInQueue,
                    j.nostreams, j.jobMetadata, j.credId, j.jobType, j.deadline == null ? null : j.deadline.toInstant().toString(),
                    sync == null ? null : sync.wire(), MaxRate.ofParams(params));
        }
    }

    /** The job's stored params, read once for the fields Ferry derives from them ({} when the job has none). */
    private static JsonNode params(String stored) {
        if (stored == null || stored.isBlank()) {
            return JSON.createObjectNode();
        }
        try {
            return JSON.readTree(stored);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code staging_start} and {@code staging_finished} are FTS3's bring-online times, which Rucio reads from every
     * file: when the stage request was accepted and when the file came online; null for files never staged (as FTS3's).
     * {@code scitag}: the SciTag flow label submitted with the file, null without one (FTS3's file column).
     * {@code staging_metadata}, {@code archive_metadata}: the file's own, as submitted (FTS3's file columns).
     */
    public record FileView(long file_id, UUID job_id, int file_index, String file_state, String source_surl, String dest_surl,
                           String source_se, String dest_se, Long filesize, String checksum, String activity, String reason,
                           String error_code, String error_phase, int retry, String start_time, String finish_time,
                           String staging_start, String staging_finished,
                           Long bytes_transferred, Double throughput_bytes_per_s, Integer streams, @JsonRawValue String file_metadata,
                           Integer scitag, @JsonRawValue String staging_metadata, @JsonRawValue String archive_metadata) {
        /** {@code filesize} is the submitted one, else what the source said once prepared (FTS3 fills it in too). */
        public static FileView of(TransferFile f) {
            Long size = f.filesize != null ? f.filesize : f.sourceSize != null && f.sourceSize >= 0 ? f.sourceSize : null;
            return new FileView(f.fileId, f.jobId, f.fileIndex, f.state.name(), f.sourceUrl, f.destUrl, f.sourceSe, f.destSe, size,
                    f.checksum, f.activity, f.reason, f.errorCode, f.errorPhase, Math.max(0, f.attempts - 1),
                    Fts3Time.format(f.startTime), Fts3Time.format(f.finishTime),
                    Fts3Time.format(f.stagingStart), Fts3Time.format(f.stagingFinished),
                    f.bytesTransferred, f.throughput, f.streams, f.fileMetadata, f.scitag,
                    f.stagingMetadata, f.archiveMetadata);
        }
    }
}
