package io.ferry.rates.repository;

/**
 * The SQL that folds queued rollup increments (see RollupIncrements) into the 5 min / 1 h / 1 d rollups.
 */
public final class RollupSql {

    private RollupSql() {
    }

    static final String ORIGIN = "TIMESTAMPTZ '2000-01-01 00:00:00+00'";

    static final String PENDING_COLUMNS = "bin_start, link_key, site_key, vo_key, done, failed, "
            + "canceled, bytes, size_done, t_s, p_s, c_s, q_s, thr_sum, thr_max";

    /**
     * The partial sums of CTE {@code queued} per key (link, site pair, VO) and 5-minute bin: increments of one key
     * from several ingest batches become one before they are spread over the three bin sizes (a fold of ~3,700
     * increments sorted 33,000 rows without this step, 5,500 with it, and took half the time).
     */
    static final String FACTS = "SELECT d.key_id, q.bin_start, sum(q.done) AS done, sum(q.failed) AS failed, "
            + "sum(q.canceled) AS canceled, sum(q.bytes) AS bytes, sum(q.size_done) AS size_done, sum(q.t_s) AS t_s, sum(q.p_s) AS p_s, "
            + "sum(q.c_s) AS c_s, sum(q.q_s) AS q_s, sum(q.thr_sum) AS thr_sum, max(q.thr_max) AS thr_max "
            + "FROM queued q CROSS JOIN LATERAL (VALUES (q.link_key), (q.site_key), (q.vo_key)) AS d(key_id) GROUP BY 1, 2";

    /** The sums of CTE {@code facts} for every bin size, added to existing rollup rows (in key order). */
    static final String UPSERT_FROM_FACTS = "INSERT INTO rollup_bin (key_id, bin_seconds, bin_start, files_done, "
            + "files_failed, files_canceled, bytes, size_done, transfer_s, prepare_s, checksum_s, queue_s, throughput_sum, throughput_max) "
            + "SELECT f.key_id, b.sec, date_bin(make_interval(secs => b.sec), f.bin_start, " + ORIGIN + "), "
            + "sum(f.done), sum(f.failed), sum(f.canceled), sum(f.bytes), sum(f.size_done), "
            + "sum(f.t_s), sum(f.p_s), sum(f.c_s), sum(f.q_s), sum(f.thr_sum), max(f.thr_max) "
            + "FROM facts f CROSS JOIN (VALUES (300), (3600), (86400)) AS b(sec) "
            + "GROUP BY 1, 2, 3 ORDER BY 1, 2, 3 "
            + "ON CONFLICT (key_id, bin_seconds, bin_start) DO UPDATE SET "
            + "files_done = rollup_bin.files_done + EXCLUDED.files_done, "
            + "files_failed = rollup_bin.files_failed + EXCLUDED.files_failed, "
            + "files_canceled = rollup_bin.files_canceled + EXCLUDED.files_canceled, "
            + "bytes = rollup_bin.bytes + EXCLUDED.bytes, size_done = rollup_bin.size_done + EXCLUDED.size_done, "
            + "transfer_s = rollup_bin.transfer_s + EXCLUDED.transfer_s, prepare_s = rollup_bin.prepare_s + EXCLUDED.prepare_s, "
            + "checksum_s = rollup_bin.checksum_s + EXCLUDED.checksum_s, queue_s = rollup_bin.queue_s + EXCLUDED.queue_s, "
            + "throughput_sum = rollup_bin.throughput_sum + EXCLUDED.throughput_sum, "
            + "throughput_max = greatest(rollup_bin.throughput_max, EXCLUDED.throughput_max)";

    /**
     * Takes queued rows in order (skipping rows another replica holds) until they hold $1 increments, adds them to the
     * rollups and answers how many rows and increments it took. Delete and upsert are one statement, so an
     * increment is either still queued or counted, never both. At most 500 rows are looked at: enough to reach $1
     * even when the scheduler delivers small batches; the rows looked at but not taken stay locked until the fold
     * commits, and another fold skips them.
     */
    public static final String DRAIN = "WITH candidate AS (SELECT seq, increments FROM rollup_pending ORDER BY seq LIMIT 500 FOR UPDATE SKIP LOCKED), "
            + "chosen AS (SELECT seq FROM (SELECT seq, sum(increments) OVER (ORDER BY seq) - increments AS before FROM candidate) c WHERE before < $1), "
            + "taken AS (DELETE FROM rollup_pending WHERE seq IN (SELECT seq FROM chosen) RETURNING *), "
            + "queued AS (SELECT u.* FROM taken t CROSS JOIN LATERAL unnest(t.bin_start, t.link_key, t.site_key, t.vo_key, t.done, t.failed, "
            + "t.canceled, t.bytes, t.size_done, t.t_s, t.p_s, t.c_s, t.q_s, t.thr_sum, t.thr_max) AS u(" + PENDING_COLUMNS + ")), "
            + "facts AS (" + FACTS + "), up AS (" + UPSERT_FROM_FACTS + " RETURNING 1) "
            + "SELECT count(*), coalesce(sum(increments), 0) FROM taken";

    /** How many increments are queued. */
    public static final String PENDING = "SELECT coalesce(sum(increments), 0) FROM rollup_pending";
}
