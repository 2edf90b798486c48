package io.ferry.scheduler.submission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.problem.Problem;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Ferry's {@code params.sync_level} (Globus's sync levels, which also takes their numbers 0–3): a file already at
 * the destination that matches the source at this level is not copied again, and one that does not match is replaced
 * (a sync job overwrites what differs, whatever {@code overwrite} says). Read at submission (to refuse wrong values) and
 * by the engine from the stored params ({@code engine.tasks.SyncCheck}).
 */
public enum SyncLevel {
    /** The destination exists. */
    EXISTS,
    /** It has the source's size. */
    SIZE,
    /** It has the source's size and is not older than the source. */
    MTIME,
    /** It has the source's checksum in the job's algorithm. */
    CHECKSUM;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The name a job gives it. */
    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** From the submitted {@code params}: null when absent; a wrong value is added to {@code errors}. */
    static SyncLevel read(JsonNode params, List<Problem.FieldError> errors) {
        JsonNode v = params.get("sync_level");
        if (v == null || v.isNull()) {
            return null;
        }
        String text = v.isIntegralNumber() || v.isTextual() ? v.asText().trim().toLowerCase(Locale.ROOT) : "";
        for (SyncLevel level : values()) {
            if (text.equals(level.wire()) || text.equals(String.valueOf(level.ordinal()))) {
                return level;
            }
        }
        errors.add(new Problem.FieldError("params.sync_level", "exists, size, mtime or checksum (or Globus's 0 to 3)"));
        return null;
    }

    /** From a job's stored params (accepted at submission, so right): null when the job does not sync. */
    public static SyncLevel ofStored(String params) {
        if (params == null || params.isBlank()) {
            return null;
        }
        try {
            return ofParams(JSON.readTree(params));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** From a job's params already read (accepted at submission, so right): null when the job does not sync. */
    public static SyncLevel ofParams(JsonNode params) {
        return read(params, new ArrayList<>());
    }
}
