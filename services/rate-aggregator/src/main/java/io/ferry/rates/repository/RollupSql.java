package io.ferry.rates.repository;

/**
 * The SQL that turns transfer records into rollup increments. Kept in one place because ingest applies it to
 * newly inserted rows and the tests apply the same definitions to all raw rows to check the rollups.
 */
public final class RollupSql {

    private RollupSql() {
    }

    /** The columns of a record that its facts are made of (URLs and messages stay out of the statement's work). */
    static final String FACT_INPUTS = "completed_at, source_se, dest_se, source_site, dest_site, vo, activity, outcome, "
            + "bytes_transferred, filesize, throughput_bytes_per_s, submitted_at, prepare_started_at, prepare_ended_at, "
            + "transfer_started_at, transfer_ended_at, checksum_started_at, checksum_ended_at";

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

    static final String ORIGIN = "TIMESTAMPTZ '2000-01-01 00:00:00+00'";

    static final String PENDING_COLUMNS = "bin_start, source_se, dest_se, source_site, dest_site, vo, activity, done, failed, "
            + "canceled, bytes, size_done, t_s, p_s, c_s, q_s, thr_sum, thr_max";

    /**
     * Queues the facts of CTE {@code facts} for {@link #DRAIN} as partial sums per 5-minute bin and key: a batch of
     * live records (many per link and bin) queues a few rows, and the 1 h and 1 d bins are unions of 5-minute bins.
     */
    public static final String QUEUE_FACTS = "INSERT INTO rollup_pending (" + PENDING_COLUMNS + ") "
            + "SELECT date_bin(INTERVAL '5 minutes', completed_at, " + ORIGIN + "), source_se, dest_se, "
            + "coalesce(source_site, 'unknown'), coalesce(dest_site, 'unknown'), vo, activity, sum(done), sum(failed), sum(canceled), "
            + "sum(CASE WHEN done = 1 THEN bytes_transferred ELSE 0 END), "
            + "sum(CASE WHEN done = 1 THEN coalesce(filesize, bytes_transferred) ELSE 0 END), "
            + "sum(t_s), sum(p_s), sum(c_s), sum(q_s), sum(thr), max(thr) FROM facts GROUP BY 1, 2, 3, 4, 5, 6, 7";

    /** The partial sums of CTE {@code queued} for every bin size and dimension, added to existing rollup rows. */
    static final String UPSERT_FROM_QUEUED = "INSERT INTO rollup (bin_seconds, bin_start, dim, k1, k2, files_done, "
            + "files_failed, files_canceled, bytes, size_done, transfer_s, prepare_s, checksum_s, queue_s, throughput_sum, throughput_max) "
            + "SELECT b.sec, date_bin(make_interval(secs => b.sec), q.bin_start, " + ORIGIN + "), d.dim, d.k1, d.k2, "
            + "sum(q.done), sum(q.failed), sum(q.canceled), sum(q.bytes), sum(q.size_done), "
            + "sum(q.t_s), sum(q.p_s), sum(q.c_s), sum(q.q_s), sum(q.thr_sum), max(q.thr_max) "
            + "FROM queued q CROSS JOIN (VALUES (300), (3600), (86400)) AS b(sec) "
            + "CROSS JOIN LATERAL (VALUES ('link', q.source_se, q.dest_se), ('site', q.source_site, q.dest_site), "
            + "('vo', q.vo, q.activity)) AS d(dim, k1, k2) "
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
    public static final String DRAIN = "WITH queued AS (DELETE FROM rollup_pending WHERE seq = ANY(ARRAY(SELECT seq FROM rollup_pending "
            + "ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED)) RETURNING *), up AS (" + UPSERT_FROM_QUEUED + " RETURNING 1) "
            + "SELECT count(*) FROM queued";
}
