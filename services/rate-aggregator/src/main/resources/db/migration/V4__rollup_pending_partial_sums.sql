-- Queued rollup increments become partial sums per 5-minute bin and key (one row per group of a batch instead of
-- one row per record): live traffic, where a batch holds many records of the same link and bin, queues and folds a
-- fraction of the rows. The 1 h and 1 d bins nest in 5-minute bins (all aligned on 2000-01-01), so nothing is lost.
ALTER TABLE rollup_pending RENAME TO rollup_pending_v3;
CREATE TABLE rollup_pending (
    seq          BIGSERIAL        PRIMARY KEY,
    bin_start    TIMESTAMPTZ      NOT NULL,   -- the 5-minute bin of the records' completed_at
    source_se    VARCHAR(100)     NOT NULL,
    dest_se      VARCHAR(100)     NOT NULL,
    source_site  VARCHAR(100)     NOT NULL,   -- 'unknown' when records name no site
    dest_site    VARCHAR(100)     NOT NULL,
    vo           VARCHAR(100)     NOT NULL,
    activity     VARCHAR(100)     NOT NULL,
    done         BIGINT           NOT NULL,
    failed       BIGINT           NOT NULL,
    canceled     BIGINT           NOT NULL,
    bytes        BIGINT           NOT NULL,   -- bytes moved by finished files
    size_done    BIGINT           NOT NULL,   -- sizes of finished files
    t_s          DOUBLE PRECISION NOT NULL,
    p_s          DOUBLE PRECISION NOT NULL,
    c_s          DOUBLE PRECISION NOT NULL,
    q_s          DOUBLE PRECISION NOT NULL,
    thr_sum      DOUBLE PRECISION NOT NULL,
    thr_max      DOUBLE PRECISION NOT NULL
);
INSERT INTO rollup_pending (bin_start, source_se, dest_se, source_site, dest_site, vo, activity, done, failed, canceled,
                            bytes, size_done, t_s, p_s, c_s, q_s, thr_sum, thr_max)
SELECT date_bin(INTERVAL '5 minutes', completed_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'), source_se, dest_se,
       coalesce(source_site, 'unknown'), coalesce(dest_site, 'unknown'), vo, activity, sum(done), sum(failed), sum(canceled),
       sum(CASE WHEN done = 1 THEN bytes_transferred ELSE 0 END),
       sum(CASE WHEN done = 1 THEN coalesce(filesize, bytes_transferred) ELSE 0 END),
       sum(t_s), sum(p_s), sum(c_s), sum(q_s), sum(thr), max(thr)
FROM rollup_pending_v3 GROUP BY 1, 2, 3, 4, 5, 6, 7;
DROP TABLE rollup_pending_v3;

-- Raw records are read by link (the link/time index); completed_at alone only serves the daily retention delete,
-- for which a BRIN index is enough and costs almost nothing per insert (the B-tree cost a quarter of ingest).
DROP INDEX transfer_record_completed_idx;
CREATE INDEX transfer_record_completed_brin ON transfer_record USING brin (completed_at);

-- The current bins' rollup rows are updated every second while transfers run. With free space on their pages the
-- updates are HOT (no index columns change): no new index entries, and old versions are pruned on the next visit
-- instead of piling up until autovacuum (a fold had slowed to ~50 µs per row from walking dead versions).
ALTER TABLE rollup SET (fillfactor = 50);
