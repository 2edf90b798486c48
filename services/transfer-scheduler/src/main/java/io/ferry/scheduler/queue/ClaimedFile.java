package io.ferry.scheduler.queue;

import io.ferry.movers.ChecksumAlgorithm;
import io.ferry.scheduler.submission.FileChecksum;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Row;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * A file a replica has claimed for preparing or moving, with what it needs of its job; {@code claimEpoch} names the
 * claim (every claim of the file increments it), and every state change the claim makes requires it.
 * {@code hasTokens}: its job brought bearer tokens toward storage (looked up only then). {@code scitag}: the file's
 * SciTag flow label, null without one. {@code archiveMetadata}: the file's archive metadata (JSON text) for its
 * destination, null without.
 */
public record ClaimedFile(long fileId, UUID jobId, int attempts, String vo, String activity, String sourceUrl, String destUrl,
                          String sourceSe, String destSe, Long filesize, String checksum, FileState state, OffsetDateTime submittedAt,
                          OffsetDateTime prepareStartedAt, OffsetDateTime preparedAt, String stageRequest, Long sourceSize,
                          boolean sourceRanges, boolean destOurs, String verify, boolean overwrite, int retry, int retryDelay,
                          Integer timeout, Integer nostreams, String alternatives, long claimEpoch,
                          boolean hasTokens, Integer scitag, String archiveMetadata) {

    /** A file without archive metadata. */
    public ClaimedFile(long fileId, UUID jobId, int attempts, String vo, String activity, String sourceUrl, String destUrl,
                       String sourceSe, String destSe, Long filesize, String checksum, FileState state, OffsetDateTime submittedAt,
                       OffsetDateTime prepareStartedAt, OffsetDateTime preparedAt, String stageRequest, Long sourceSize,
                       boolean sourceRanges, boolean destOurs, String verify, boolean overwrite, int retry, int retryDelay,
                       Integer timeout, Integer nostreams, String alternatives, long claimEpoch, boolean hasTokens, Integer scitag) {
        this(fileId, jobId, attempts, vo, activity, sourceUrl, destUrl, sourceSe, destSe, filesize, checksum, state, submittedAt,
                prepareStartedAt, preparedAt, stageRequest, sourceSize, sourceRanges, destOurs, verify, overwrite, retry, retryDelay,
                timeout, nostreams, alternatives, claimEpoch, hasTokens, scitag, null);
    }

    /** The columns {@link #of} reads, for RETURNING clauses of claims joined with {@code job j}. */
    public static final String COLUMNS = "f.file_id, f.job_id, f.attempts, f.vo, f.activity, f.source_url, f.dest_url, f.source_se, "
            + "f.dest_se, f.filesize, f.checksum, f.state, f.submitted_at, f.prepare_started_at, f.prepared_at, f.stage_request, "
            + "f.source_size, f.source_ranges, f.dest_ours, j.verify_checksum, "
            // overwrite_hop: a hop with a hop after it is an intermediate one
            + "(j.overwrite OR j.overwrite_hop AND EXISTS (SELECT 1 FROM transfer_file h WHERE h.job_id = f.job_id AND h.file_index = f.file_index + 1)), "
            + "j.retry, j.retry_delay, j.timeout, j.nostreams, f.alternatives, f.claim_epoch, "
            + "j.has_tokens, f.scitag, f.archive_metadata";
    /** How many columns {@link #COLUMNS} are (a statement may return more after them). */
    public static final int COLUMN_COUNT = 30;

    public static ClaimedFile of(Row r) {
        return new ClaimedFile(r.getLong(0), r.getUUID(1), r.getInteger(2), r.getString(3), r.getString(4), r.getString(5),
                r.getString(6), r.getString(7), r.getString(8), r.getLong(9), r.getString(10), FileState.valueOf(r.getString(11)),
                r.getOffsetDateTime(12), r.getOffsetDateTime(13), r.getOffsetDateTime(14), r.getString(15), r.getLong(16),
                r.getBoolean(17), r.getBoolean(18), r.getString(19), r.getBoolean(20), r.getInteger(21), r.getInteger(22),
                r.getInteger(23), r.getInteger(24), r.getString(25), r.getLong(26), r.getBoolean(27), r.getInteger(28), r.getString(29));
    }

    /** The further sources given for this file, to try when the current one fails for good (oldest first). */
    public List<String> alternativeSources() {
        if (alternatives == null || alternatives.isBlank()) {
            return List.of();
        }
        return new JsonArray(alternatives).stream().map(String::valueOf).toList();
    }

    /** The algorithm the copy computes and compares: the job's, else ADLER32. */
    public ChecksumAlgorithm checksumAlgorithm() {
        return FileChecksum.algorithm(checksum);
    }

    /** The job's checksum as the algorithm's lower-case hex digits, or null when it gave no value. */
    public String expectedChecksum() {
        return FileChecksum.value(checksum);
    }
}
