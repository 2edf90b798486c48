package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import io.ferry.problem.Problem;

import java.util.List;

/**
 * A file's {@code staging_metadata} and {@code archive_metadata} as FTS3's REST server takes them: per file (FTS3's
 * client copies job-level ones onto each file; Rucio sends {@code {"default": {"activity": ...}}} as staging metadata
 * of every staged file), each a JSON object of at most {@link #MAX_CHARS} characters (FTS3's default size limits),
 * null for none. Kept as JSON text: staging metadata goes into the file's stage request as {@code targetedMetadata},
 * archive metadata with its copy to the destination, base64 in the {@code ArchiveMetadata} header as gfal2 sends it.
 */
public record FileTapeMetadata(String staging, String archive) {

    public static final FileTapeMetadata NONE = new FileTapeMetadata(null, null);

    /** FTS3's StagingMetadataSizeLimit and ArchiveMetadataSizeLimit by default. */
    public static final int MAX_CHARS = 1024;

    /** The file's two fields at {@code at}; a wrong one is added to {@code errors}. */
    static FileTapeMetadata parse(JsonNode file, String at, List<Problem.FieldError> errors) {
        String staging = object(file.get("staging_metadata"), at + ".staging_metadata", "Staging metadata", errors);
        String archive = object(file.get("archive_metadata"), at + ".archive_metadata", "Archive metadata", errors);
        return staging == null && archive == null ? NONE : new FileTapeMetadata(staging, archive);
    }

    private static String object(JsonNode v, String field, String name, List<Problem.FieldError> errors) {
        if (v == null || v.isNull() || v.isMissingNode()) {
            return null;
        }
        if (!v.isObject()) {
            errors.add(new Problem.FieldError(field, name + " is not in JSON format: a JSON object is expected"));
            return null;
        }
        String text = v.toString();
        if (text.length() > MAX_CHARS) {
            errors.add(new Problem.FieldError(field, name + " exceeds size limit of " + MAX_CHARS + " characters"));
            return null;
        }
        return text;
    }
}
