package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.problem.Problem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A job's tape parameters as FTS3 takes them: {@code bring_online} (seconds a stage may take; > 0 stages the sources
 * that have a Tape REST endpoint), {@code copy_pin_lifetime} (seconds the staged copy stays pinned on disk, sent as
 * Tape REST's {@code diskLifetime}; > 0 also stages), {@code staging_metadata} (an object, sent as
 * {@code targetedMetadata}), {@code archive_timeout} (seconds a copy to a tape SE may take to reach tape; > 0: the
 * file is ARCHIVING after its copy until Tape REST's {@code archiveinfo} says it is on tape), {@code dst_file_report}
 * (a copy refused because the destination exists and overwrite is off reports that file's size, checksum and
 * locality as {@code dst_file} in the file's metadata), {@code overwrite_when_only_on_disk} (with archive_timeout: an
 * existing destination is replaced only while it is on disk and not on tape, see
 * {@code engine.tasks.OverwriteOnDisk}). -1 (FTS3's default), 0 or absent is "none". Read at submission (to refuse
 * wrong values) and by the engine from the stored params.
 */
public record TapeParams(int bringOnline, int copyPinLifetime, JsonNode stagingMetadata, int archiveTimeout, boolean dstFileReport,
                         boolean overwriteWhenOnlyOnDisk) {

    public static final TapeParams NONE = new TapeParams(-1, -1, null, -1, false, false);

    /** The longest stage or pin taken: a year, as for {@code max_time_in_queue}. */
    static final int MAX_SECONDS = 366 * 86_400;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The job asked for its sources to be brought online first. */
    public boolean staging() {
        return bringOnline > 0 || copyPinLifetime > 0;
    }

    /** The job's copies to a tape SE are followed until on tape. */
    public boolean archive() {
        return archiveTimeout > 0;
    }

    /** FTS3's url-copy applies overwrite_when_only_on_disk to archiving jobs only (archive_timeout > 0). */
    public boolean overwritesOnDiskOnly() {
        return overwriteWhenOnlyOnDisk && archive();
    }

    /** Tape REST's {@code diskLifetime} (ISO 8601), or null when the job gave no pin lifetime. */
    public String diskLifetime() {
        return copyPinLifetime > 0 ? "PT" + copyPinLifetime + "S" : null;
    }

    /** From the submitted {@code params}; each wrong value is added to {@code errors}. */
    static TapeParams read(JsonNode params, List<Problem.FieldError> errors) {
        int bringOnline = seconds(params.get("bring_online"), "params.bring_online", errors);
        int pin = seconds(params.get("copy_pin_lifetime"), "params.copy_pin_lifetime", errors);
        JsonNode metadata = params.get("staging_metadata");
        if (metadata == null || metadata.isNull()) {
            metadata = null;
        } else if (!metadata.isObject()) {
            errors.add(new Problem.FieldError("params.staging_metadata", "a JSON object"));
            metadata = null;
        } else if (metadata.toString().length() > 16_384) {
            errors.add(new Problem.FieldError("params.staging_metadata", "at most 16 KiB"));
            metadata = null;
        }
        int archiveTimeout = seconds(params.get("archive_timeout"), "params.archive_timeout", errors);
        boolean dstFileReport = Submission.bool(params.get("dst_file_report"), "params.dst_file_report", false, errors);
        boolean onDisk = Submission.bool(params.get("overwrite_when_only_on_disk"), "params.overwrite_when_only_on_disk", false, errors);
        return new TapeParams(bringOnline, pin, metadata, archiveTimeout, dstFileReport, onDisk);
    }

    /** From a job's stored params (accepted at submission, so right). */
    public static TapeParams ofStored(String params) {
        if (params == null || params.isBlank()) {
            return NONE;
        }
        try {
            return read(JSON.readTree(params), new ArrayList<>());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static int seconds(JsonNode v, String field, List<Problem.FieldError> errors) {
        if (v == null || v.isNull()) {
            return -1;
        }
        long n;
        if (v.isIntegralNumber() && v.canConvertToLong()) {
            n = v.asLong();
        } else if (v.isTextual() && v.asText().matches("-?\\d{1,10}")) {
            n = Long.parseLong(v.asText());
        } else {
            errors.add(new Problem.FieldError(field, "seconds, a whole number from -1 to " + MAX_SECONDS));
            return -1;
        }
        if (n < -1 || n > MAX_SECONDS) {
            errors.add(new Problem.FieldError(field, "seconds, a whole number from -1 to " + MAX_SECONDS));
            return -1;
        }
        return (int) n;
    }
}
