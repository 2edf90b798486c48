package io.ferry.scheduler.probes;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * SQL of link probes and their runs. Due probes and ended runs are claimed with {@code FOR UPDATE SKIP LOCKED}, so
 * with several replicas each run is started, and each ended one cleaned up, by exactly one of them.
 */
public final class ProbeRows {

    private static final String PROBE_COLUMNS = "probe_id, source_se, dest_se, file_size, interval_seconds, vo, enabled, next_run, "
            + "created_at, updated_at, updated_by";
    private static final String RUN_COLUMNS = "run_id, probe_id, source_se, dest_se, started_at, job_id, file_size, outcome, finished_at, "
            + "bytes_transferred, throughput, duration_seconds, error_code, error";
    /** The mean of the probe's finished runs' throughput over the 12 hours up to each run. */
    private static final String AVERAGE_12H = "avg(throughput) FILTER (WHERE outcome = 'FINISHED') OVER (PARTITION BY probe_id ORDER BY started_at "
            + "RANGE BETWEEN INTERVAL '12 hours' PRECEDING AND CURRENT ROW)";

    private ProbeRows() {
    }

    /** A probe's settings as an operator gives them (null: keep the stored value, on update). */
    public record Settings(String sourceSe, String destSe, Long fileSize, Integer intervalSeconds, String vo, Boolean enabled) {
    }

    /** A probe's runs in the last 12 hours at a glance. */
    public record Summary(long runs, long finished, Double averageThroughput) {
    }

    public static Uni<Probe> insert(SqlClient c, Settings s, String by) {
        return c.preparedQuery("INSERT INTO link_probe (source_se, dest_se, file_size, interval_seconds, vo, enabled, updated_by) "
                        + "VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING " + PROBE_COLUMNS)
                .execute(Tuple.from(new Object[]{s.sourceSe(), s.destSe(), s.fileSize(), s.intervalSeconds(), s.vo(), s.enabled(), by}))
                .map(rows -> probe(rows.iterator().next()));
    }

    /** The probe with the given settings replaced; a changed interval counts from now. Empty when there is no such probe. */
    public static Uni<Optional<Probe>> update(SqlClient c, long id, Settings s, String by) {
        return c.preparedQuery("UPDATE link_probe SET source_se = coalesce($2, source_se), dest_se = coalesce($3, dest_se), "
                        + "file_size = coalesce($4, file_size), interval_seconds = coalesce($5, interval_seconds), vo = coalesce($6, vo), "
                        + "enabled = coalesce($7, enabled), next_run = CASE WHEN $5::int IS NULL THEN next_run ELSE least(next_run, now() + make_interval(secs => $5)) END, "
                        + "updated_at = now(), updated_by = $8 WHERE probe_id = $1 RETURNING " + PROBE_COLUMNS)
                .execute(Tuple.from(new Object[]{id, s.sourceSe(), s.destSe(), s.fileSize(), s.intervalSeconds(), s.vo(), s.enabled(), by}))
                .map(ProbeRows::first);
    }

    public static Uni<Boolean> delete(SqlClient c, long id) {
        return c.preparedQuery("DELETE FROM link_probe WHERE probe_id = $1").execute(Tuple.of(id)).map(r -> r.rowCount() > 0);
    }

    public static Uni<List<Probe>> list(SqlClient c) {
        return c.preparedQuery("SELECT " + PROBE_COLUMNS + " FROM link_probe ORDER BY source_se, dest_se, probe_id").execute()
                .map(ProbeRows::probes);
    }

    public static Uni<Optional<Probe>> find(SqlClient c, long id) {
        return c.preparedQuery("SELECT " + PROBE_COLUMNS + " FROM link_probe WHERE probe_id = $1").execute(Tuple.of(id)).map(ProbeRows::first);
    }

    /** Each probe's runs since {@code since}: how many, how many finished, and their mean throughput. */
    public static Uni<Map<Long, Summary>> summaries(SqlClient c, OffsetDateTime since) {
        return c.preparedQuery("SELECT probe_id, count(*), count(*) FILTER (WHERE outcome = 'FINISHED'), "
                        + "avg(throughput) FILTER (WHERE outcome = 'FINISHED') FROM probe_run WHERE started_at >= $1 AND probe_id IS NOT NULL "
                        + "AND outcome <> 'RUNNING' GROUP BY probe_id")
                .execute(Tuple.of(since)).map(rows -> {
                    Map<Long, Summary> out = new HashMap<>();
                    for (Row r : rows) {
                        out.put(r.getLong(0), new Summary(r.getLong(1), r.getLong(2), r.getDouble(3)));
                    }
                    return out;
                });
    }

    /** The latest run of each probe. */
    public static Uni<Map<Long, ProbeRun>> latestRuns(SqlClient c) {
        return c.preparedQuery("SELECT DISTINCT ON (probe_id) " + RUN_COLUMNS + ", NULL::float8 FROM probe_run WHERE probe_id IS NOT NULL "
                        + "ORDER BY probe_id, started_at DESC, run_id DESC").execute()
                .map(rows -> {
                    Map<Long, ProbeRun> out = new HashMap<>();
                    for (Row r : rows) {
                        ProbeRun run = run(r);
                        out.put(run.probeId(), run);
                    }
                    return out;
                });
    }

    /**
     * The runs of the probes {@code probeIds} (null: all) started since {@code since}, oldest first, each with the
     * 12-hour average up to it (runs before {@code since} count toward the first averages).
     */
    public static Uni<List<ProbeRun>> series(SqlClient c, List<Long> probeIds, OffsetDateTime since) {
        String sql = "SELECT * FROM (SELECT " + RUN_COLUMNS + ", " + AVERAGE_12H + " FROM probe_run "
                + "WHERE probe_id IS NOT NULL AND ($1::bigint[] IS NULL OR probe_id = ANY($1)) AND started_at >= $2::timestamptz - INTERVAL '12 hours') s "
                + "WHERE started_at >= $2 ORDER BY started_at, run_id";
        return c.preparedQuery(sql).execute(Tuple.tuple().addArrayOfLong(probeIds == null ? null : probeIds.toArray(Long[]::new)).addOffsetDateTime(since)).map(rows -> {
            List<ProbeRun> out = new ArrayList<>();
            for (Row r : rows) {
                out.add(run(r));
            }
            return out;
        });
    }

    // ---- the probe loop's claims -------------------------------------------------------------------------------

    /**
     * Enabled probes due now whose previous run ended, locked for this transaction (another replica skips them),
     * at most {@code limit}.
     */
    public static Uni<List<Probe>> claimDue(SqlClient c, int limit) {
        return c.preparedQuery("SELECT " + PROBE_COLUMNS + " FROM link_probe p WHERE enabled AND next_run <= now() "
                        + "AND NOT EXISTS (SELECT 1 FROM probe_run r WHERE r.probe_id = p.probe_id AND r.outcome = 'RUNNING') "
                        + "ORDER BY next_run LIMIT $1 FOR UPDATE SKIP LOCKED")
                .execute(Tuple.of(limit)).map(ProbeRows::probes);
    }

    /** The probe's next run an interval from now. */
    public static Uni<Void> scheduleNext(SqlClient c, long probeId, int intervalSeconds) {
        return c.preparedQuery("UPDATE link_probe SET next_run = now() + make_interval(secs => $2) WHERE probe_id = $1")
                .execute(Tuple.of(probeId, intervalSeconds)).replaceWithVoid();
    }

    /** A run that did not start: its source could not be created (or no copy between the SEs is possible). */
    public static Uni<Void> notStarted(SqlClient c, Probe p, String errorCode, String error) {
        return c.preparedQuery("INSERT INTO probe_run (probe_id, source_se, dest_se, file_size, outcome, finished_at, error_code, error, cleaned) "
                        + "VALUES ($1, $2, $3, $4, 'NOT_STARTED', now(), $5, $6, TRUE)")
                .execute(Tuple.of(p.probeId(), p.sourceSe(), p.destSe(), p.fileSize(), errorCode, error)).replaceWithVoid();
    }

    /** A run whose source exists and whose job is stored; not cleaned until both files are removed. */
    public static Uni<Void> started(SqlClient c, Probe p, UUID jobId, ProbeFiles files) {
        return c.preparedQuery("INSERT INTO probe_run (probe_id, source_se, dest_se, file_size, outcome, job_id, source_url, source_base, "
                        + "dest_url, dest_base) VALUES ($1, $2, $3, $4, 'RUNNING', $5, $6, $7, $8, $9)")
                .execute(Tuple.from(new Object[]{p.probeId(), p.sourceSe(), p.destSe(), p.fileSize(), jobId, files.source(), files.sourceBase(),
                        files.destination(), files.destinationBase()})).replaceWithVoid();
    }

    /** Where a run's files are: URLs and the SEs' base URLs they lie below. */
    public record ProbeFiles(String source, String sourceBase, String destination, String destinationBase) {
    }

    /** A run whose job ended (or whose files still wait to be removed), with the job's one file's outcome. */
    public record Ended(long runId, UUID jobId, String outcome, ProbeFiles files, boolean recorded, Long bytes, Double throughput,
                        Double durationSeconds, String errorCode, String error) {
    }

    /**
     * Runs whose job is over but that are not yet recorded or cleaned, locked for this transaction, at most
     * {@code limit}. A run whose job is gone (purged) counts as FAILED.
     */
    public static Uni<List<Ended>> claimEnded(SqlClient c, int limit) {
        String sql = "SELECT r.run_id, r.job_id, r.outcome, j.state, r.source_url, r.source_base, r.dest_url, r.dest_base, "
                + "f.state, f.bytes_transferred, f.throughput, extract(epoch FROM f.finish_time - f.start_time), f.error_code, "
                + "coalesce(f.reason, j.reason) "
                + "FROM probe_run r LEFT JOIN job j ON j.job_id = r.job_id LEFT JOIN transfer_file f ON f.job_id = r.job_id "
                + "WHERE (r.outcome = 'RUNNING' AND (j.job_id IS NULL OR j.state IN ('FINISHED', 'FINISHEDDIRTY', 'FAILED', 'CANCELED'))) "
                + "OR (r.outcome <> 'RUNNING' AND NOT r.cleaned) ORDER BY r.run_id LIMIT $1 FOR UPDATE OF r SKIP LOCKED";
        return c.preparedQuery(sql).execute(Tuple.of(limit)).map(rows -> {
            List<Ended> out = new ArrayList<>();
            for (Row r : rows) {
                boolean recorded = !"RUNNING".equals(r.getString(2));
                String fileState = r.getString(8);
                String outcome = recorded ? r.getString(2) : fileState == null ? "FAILED"
                        : switch (fileState) {
                    case "FINISHED" -> "FINISHED";
                    case "CANCELED" -> "CANCELED";
                    default -> "FAILED";
                };
                Object seconds = r.getValue(11);
                out.add(new Ended(r.getLong(0), r.getUUID(1), outcome, new ProbeFiles(r.getString(4), r.getString(5), r.getString(6), r.getString(7)),
                        recorded, r.getLong(9), r.getDouble(10), seconds == null ? null : ((Number) seconds).doubleValue(),
                        r.getString(12), r.getString(3) == null ? "the probe's job is gone" : r.getString(13)));
            }
            return out;
        });
    }

    /** The run's outcome and figures, and whether both its files are removed. */
    public static Uni<Void> ended(SqlClient c, Ended e, boolean cleaned, String cleanupError) {
        if (e.recorded()) {
            return c.preparedQuery("UPDATE probe_run SET cleaned = $2 WHERE run_id = $1").execute(Tuple.of(e.runId(), cleaned)).replaceWithVoid();
        }
        String error = e.error();
        if (cleanupError != null) {
            error = (error == null ? "" : error + "; ") + cleanupError;
        }
        return c.preparedQuery("UPDATE probe_run SET outcome = $2, finished_at = coalesce(finished_at, now()), bytes_transferred = $3, "
                        + "throughput = $4, duration_seconds = $5, error_code = $6, error = $7, cleaned = $8 WHERE run_id = $1")
                .execute(Tuple.from(new Object[]{e.runId(), e.outcome(), e.bytes(), e.throughput(), e.durationSeconds(),
                        "FINISHED".equals(e.outcome()) ? null : e.errorCode(), "FINISHED".equals(e.outcome()) && cleanupError == null ? null : error, cleaned}))
                .replaceWithVoid();
    }

    /** Runs of deleted probes, once their files are removed, are kept no longer: nothing shows them. */
    public static Uni<Void> dropOrphans(SqlClient c) {
        return c.preparedQuery("DELETE FROM probe_run WHERE probe_id IS NULL AND cleaned").execute().replaceWithVoid();
    }

    private static Optional<Probe> first(RowSet<Row> rows) {
        var it = rows.iterator();
        return it.hasNext() ? Optional.of(probe(it.next())) : Optional.empty();
    }

    private static List<Probe> probes(RowSet<Row> rows) {
        List<Probe> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(probe(r));
        }
        return out;
    }

    private static Probe probe(Row r) {
        return new Probe(r.getLong(0), r.getString(1), r.getString(2), r.getLong(3), r.getInteger(4), r.getString(5), r.getBoolean(6),
                r.getOffsetDateTime(7), r.getOffsetDateTime(8), r.getOffsetDateTime(9), r.getString(10));
    }

    private static ProbeRun run(Row r) {
        return new ProbeRun(r.getLong(0), r.getLong(1), r.getString(2), r.getString(3), r.getOffsetDateTime(4), r.getUUID(5), r.getLong(6),
                r.getString(7), r.getOffsetDateTime(8), r.getLong(9), r.getDouble(10), r.getDouble(11), r.getString(12), r.getString(13),
                r.getDouble(14));
    }
}
