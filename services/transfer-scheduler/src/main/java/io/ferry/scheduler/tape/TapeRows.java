package io.ferry.scheduler.tape;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ferry.scheduler.submission.TapeParams;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/** What staging or archiving a file needs beyond its claim: its job's tape parameters and when its stage request went out. */
public final class TapeRows {

    private static final ObjectMapper JSON = new ObjectMapper();

    private TapeRows() {
    }

    /**
     * {@code stagingStart}: null before the first stage request. {@code fileMetadata}: the file's own staging
     * metadata, null without.
     */
    public record Staging(TapeParams params, OffsetDateTime stagingStart, JsonNode fileMetadata) {

        /** What the stage request carries as the file's targetedMetadata: its own, else its job's (null: none). */
        public JsonNode metadata() {
            return fileMetadata != null ? fileMetadata : params.stagingMetadata();
        }
    }

    public static Staging of(Pool pool, long fileId, Duration wait) {
        return ofFiles(pool, java.util.List.of(fileId), wait).get(fileId);
    }

    /** The rows of {@code fileIds} in one query, by file id. */
    public static Map<Long, Staging> ofFiles(Pool pool, Collection<Long> fileIds, Duration wait) {
        Map<Long, Staging> out = new HashMap<>();
        for (Row r : pool.preparedQuery("SELECT f.file_id, j.params, f.staging_start, f.staging_metadata FROM transfer_file f "
                + "JOIN job j ON j.job_id = f.job_id WHERE f.file_id = ANY($1)").execute(Tuple.of(fileIds.toArray(Long[]::new))).await().atMost(wait)) {
            out.put(r.getLong(0), new Staging(TapeParams.ofStored(r.getString(1)), r.getOffsetDateTime(2), json(r.getString(3))));
        }
        return out;
    }

    private static JsonNode json(String text) {
        try {
            return text == null ? null : JSON.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
