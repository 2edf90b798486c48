package io.ferry.scheduler.transitions;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ferry.scheduler.queue.AttemptTimes;
import io.ferry.scheduler.queue.ClaimedFile;
import io.ferry.scheduler.storage.SchedulingInputs;
import io.ferry.scheduler.storage.SiteDirectory;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The transfer record of one attempt (schema in services/rate-aggregator/README.md, agreed with rate-aggregator),
 * written to the outbox in the transaction of the state change it describes. Its id, job/file/attempt, makes re-delivery harmless.
 */
@ApplicationScoped
public class TransferRecords {

    private static final DateTimeFormatter ISO_MILLIS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");

    /** What an attempt ended with. */
    public record Outcome(String outcome, long bytes, Integer streams, String errorCode, String errorPhase, String errorMessage,
                          Boolean retryable) {
        public static Outcome finished(long bytes, int streams) {
            return new Outcome("FINISHED", bytes, streams, null, null, null, null);
        }
    }

    private final ObjectMapper json;
    private final SiteDirectory sites;

    @Inject
    TransferRecords(ObjectMapper json, SiteDirectory sites) {
        this.json = json;
        this.sites = sites;
    }

    /** A record ready for the outbox: its id and its JSON. */
    public record Built(String id, String payload) {
    }

    public Uni<Void> write(SqlClient c, Built built) {
        return writeAll(c, List.of(built));
    }

    /** Several records in one statement (records already in the outbox are left as they are). */
    public Uni<Void> writeAll(SqlClient c, List<Built> built) {
        if (built.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return c.preparedQuery("INSERT INTO record_outbox (record_id, payload) SELECT * FROM unnest($1::text[], $2::text[]) "
                        + "ON CONFLICT (record_id) DO NOTHING")
                .execute(Tuple.of(built.stream().map(Built::id).toArray(String[]::new), built.stream().map(Built::payload).toArray(String[]::new)))
                .replaceWithVoid();
    }

    /**
     * An INSERT, for a CTE of the statement that makes the change, writing the records of the files the CTE
     * {@code changed} (a {@code file_id} column) returns; parameters {@code $first..$first+2}: file ids, record ids,
     * payloads, in one order. Records already in the outbox are left as they are.
     */
    public static String insertForChanged(String changed, int first) {
        return "INSERT INTO record_outbox (record_id, payload) SELECT r.id, r.payload FROM unnest($" + first + "::bigint[], $" + (first + 1)
                + "::text[], $" + (first + 2) + "::text[]) AS r(file_id, id, payload) JOIN " + changed + " USING (file_id) "
                + "ON CONFLICT (record_id) DO NOTHING";
    }

    /**
     * Builds the record of one attempt. Call it on the engine's own threads, before a reactive chain: it reads the SE
     * directory, which may query the database and wait, and continuations run on the event loop, where nothing may.
     */
    public Built build(ClaimedFile f, int attempt, AttemptTimes t, Outcome o) {
        String id = f.jobId() + "/" + f.fileId() + "/" + attempt;
        ObjectNode r = json.createObjectNode();
        r.put("id", id).put("job_id", f.jobId().toString()).put("file_id", f.fileId()).put("attempt", attempt)
                .put("vo", f.vo()).put("activity", f.activity()).put("source_se", f.sourceSe()).put("dest_se", f.destSe());
        SchedulingInputs.Se src = sites.se(f.sourceSe());
        SchedulingInputs.Se dst = sites.se(f.destSe());
        if (src != null) {
            r.put("source_site", src.site());
        }
        if (dst != null) {
            r.put("dest_site", dst.site());
        }
        r.put("source_url", f.sourceUrl()).put("dest_url", f.destUrl());
        Long size = f.filesize() != null ? f.filesize() : f.sourceSize() != null && f.sourceSize() >= 0 ? f.sourceSize() : null;
        long bytes = size != null ? Math.min(o.bytes(), size) : o.bytes();
        if (size != null) {
            r.put("filesize", size);
        }
        r.put("bytes_transferred", bytes);
        if (o.streams() != null) {
            r.put("streams", o.streams());
        }
        time(r, "submitted_at", f.submittedAt());
        time(r, "prepare_started_at", t.prepareStarted());
        time(r, "prepare_ended_at", t.prepareEnded());
        time(r, "transfer_started_at", t.transferStarted());
        time(r, "transfer_ended_at", t.transferEnded());
        time(r, "checksum_started_at", t.checksumStarted());
        time(r, "checksum_ended_at", t.checksumEnded());
        if (t.transferStarted() != null && t.transferEnded() != null && "FINISHED".equals(o.outcome())) {
            double seconds = Math.max(0.001, ChronoUnit.MICROS.between(t.transferStarted(), t.transferEnded()) / 1e6);
            r.put("throughput_bytes_per_s", bytes / seconds);
        }
        r.put("outcome", o.outcome());
        if (o.errorCode() != null) {
            r.put("error_code", o.errorCode()).put("error_phase", o.errorPhase())
                    .put("error_message", o.errorMessage() == null ? null : o.errorMessage().substring(0, Math.min(4000, o.errorMessage().length())))
                    .put("retryable", o.retryable());
        }
        return new Built(id, r.toString());
    }

    private static void time(ObjectNode r, String field, OffsetDateTime t) {
        if (t != null) {
            r.put(field, t.withOffsetSameInstant(ZoneOffset.UTC).format(ISO_MILLIS));
        }
    }
}
