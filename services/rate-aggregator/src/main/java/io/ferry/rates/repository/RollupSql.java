package io.ferry.rates.repository;

/**
 * The SQL that turns transfer records into rollup increments. Kept in one place because ingest applies it to
 * newly inserted rows and the tests apply the same definitions to all raw rows to check the rollups.
 */
public final class RollupSql {

    private RollupSql() {
    }

    /** Per-record facts of the rows in CTE {@code ins}: outcome counts and phase durations in seconds. */
    public static final String FACTS_FROM_INS = "facts AS (SELECT i.*, "
            + "(i.outcome = 'FINISHED')::int AS done, (i.outcome = 'FAILED')::int AS failed, (i.outcome = 'CANCELED')::int AS canceled, "
            + "CASE WHEN i.outcome = 'FINISHED' THEN coalesce(extract(epoch FROM i.transfer_ended_at - i.transfer_started_at), 0) ELSE 0 END AS t_s, "
            + "CASE WHEN i.outcome = 'FINISHED' THEN coalesce(extract(epoch FROM i.prepare_ended_at - i.prepare_started_at), 0) ELSE 0 END AS p_s, "
            + "CASE WHEN i.outcome = 'FINISHED' THEN coalesce(extract(epoch FROM i.checksum_ended_at - i.checksum_started_at), 0) ELSE 0 END AS c_s, "
            + "CASE WHEN i.outcome = 'FINISHED' THEN greatest(coalesce(extract(epoch FROM coalesce(i.prepare_started_at, i.transfer_started_at) - i.submitted_at), 0), 0) ELSE 0 END AS q_s, "
            + "CASE WHEN i.outcome = 'FINISHED' THEN coalesce(i.throughput_bytes_per_s, "
            + "  i.bytes_transferred / nullif(extract(epoch FROM i.transfer_ended_at - i.transfer_started_at), 0), 0) ELSE 0 END AS thr "
            + "FROM ins i)";

    static final String FACT_COLUMNS = "completed_at, source_se, dest_se, source_site, dest_site, vo, activity, done, failed, "
            + "canceled, bytes_transferred, filesize, t_s, p_s, c_s, q_s, thr";

    /** Queues the facts of CTE {@code facts} for {@link #DRAIN}. */
    public static final String QUEUE_FACTS = "INSERT INTO rollup_pending (" + FACT_COLUMNS + ") SELECT " + FACT_COLUMNS + " FROM facts";

    /** The increments of {@code facts} for every bin size and dimension, added to existing rollup rows. */
    public static final String UPSERT_FROM_FACTS = "INSERT INTO rollup (bin_seconds, bin_start, dim, k1, k2, files_done, "
            + "files_failed, files_canceled, bytes, size_done, transfer_s, prepare_s, checksum_s, queue_s, throughput_sum, throughput_max) "
            + "SELECT b.sec, date_bin(make_interval(secs => b.sec), f.completed_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), d.dim, d.k1, d.k2, "
            + "sum(f.done), sum(f.failed), sum(f.canceled), "
            + "sum(CASE WHEN f.done = 1 THEN f.bytes_transferred ELSE 0 END), "
            + "sum(CASE WHEN f.done = 1 THEN coalesce(f.filesize, f.bytes_transferred) ELSE 0 END), "
            + "sum(f.t_s), sum(f.p_s), sum(f.c_s), sum(f.q_s), sum(f.thr), max(f.thr) "
            + "FROM facts f CROSS JOIN (VALUES (300), (3600), (86400)) AS b(sec) "
            + "CROSS JOIN LATERAL (VALUES ('link', f.source_se, f.dest_se), "
            + "('site', coalesce(f.source_site, 'unknown'), coalesce(f.dest_site, 'unknown')), "
            + "('vo', f.vo, f.activity)) AS d(dim, k1, k2) "
            + "GROUP BY 1, 2, 3, 4, 5 ORDER BY 3, 1, 4, 5, 2 "
            + "ON CONFLICT (dim, bin_seconds, k1, k2, bin_start) DO UPDATE SET "
            + "files_done = rollup.files_done + EXCLUDED.files_done, "
            + "files_failed = rollup.files_failed + EXCLUDED.files_failed, "
            + "files_canceled = rollup.files_canceled + EXCLUDED.files_canceled, "
            + "bytes = rollup.bytes + EXCLUDED.bytes, size_done = rollup.size_done + EXCLUDED.size_done, "
            + "transfer_s = rollup.transfer_s + EXCLUDED.transfer_s, prepare_s = rollup.prepare_s + EXCLUDED.prepare_s, "
            + "checksum_s = rollup.checksum_s + EXCLUDED.checksum_s, queue_s = rollup.queue_s + EXCLUDED.queue_s, "
            + "throughput_sum = rollup.throughput_sum + EXCLUDED.throughput_sum, "
            + "throughput_max = greatest(rollup.throughput_max, EXCLUDED.throughput_max)";

    /**
     * Takes up to $1 queued facts (skipping rows another replica holds), adds them to the rollups and answers how
     * many it took: delete and upsert are one statement, so a fact is either still queued or counted, never both.
     */
    public static final String DRAIN = "WITH facts AS (DELETE FROM rollup_pending WHERE seq IN (SELECT seq FROM rollup_pending "
            + "ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED) RETURNING *), up AS (" + UPSERT_FROM_FACTS + " RETURNING 1) "
            + "SELECT count(*) FROM facts";
}
