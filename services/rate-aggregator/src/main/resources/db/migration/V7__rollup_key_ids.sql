-- Rollup rows and queued increments name their key (dimension, k1, k2) by a 4-byte id instead of by the names.
-- A fold sorts and looks up hundreds of thousands of rows by key: with three text columns leading the primary key,
-- perf showed the time going to text comparisons and to finding the columns after them (a backfill fold of 50,000
-- queued rows took 4.9 s; with integer keys, 3.3 s). Keys are few (one per link, site pair, VO and activity) and
-- are never deleted, so the service keeps them in memory once it has read or created them.
CREATE TABLE rollup_key (
    id   SERIAL       PRIMARY KEY,
    dim  VARCHAR(4)   COLLATE "C" NOT NULL,   -- link, site or vo
    k1   VARCHAR(100) COLLATE "C" NOT NULL,   -- source SE, source site or VO
    k2   VARCHAR(100) COLLATE "C" NOT NULL,   -- destination SE, destination site or activity
    UNIQUE (dim, k1, k2)
);
INSERT INTO rollup_key (dim, k1, k2)
SELECT dim, k1, k2 FROM rollup
UNION
SELECT d.dim, d.k1, d.k2 FROM rollup_pending q CROSS JOIN LATERAL (VALUES ('link', q.source_se, q.dest_se),
    ('site', q.source_site, q.dest_site), ('vo', q.vo, q.activity)) AS d(dim, k1, k2)
ORDER BY 1, 2, 3;

CREATE TABLE rollup_bin (
    key_id          INTEGER          NOT NULL,   -- rollup_key.id (no foreign key: its check would cost every insert)
    bin_seconds     INTEGER          NOT NULL,
    bin_start       TIMESTAMPTZ      NOT NULL,
    files_done      BIGINT           NOT NULL,
    files_failed    BIGINT           NOT NULL,
    files_canceled  BIGINT           NOT NULL,
    bytes           BIGINT           NOT NULL,   -- bytes moved by finished files
    size_done       BIGINT           NOT NULL,   -- sum of finished files' sizes (average file size)
    transfer_s      DOUBLE PRECISION NOT NULL,   -- sum of transfer-phase seconds of finished files
    prepare_s       DOUBLE PRECISION NOT NULL,   -- sum of prepare-phase seconds of finished files
    checksum_s      DOUBLE PRECISION NOT NULL,
    queue_s         DOUBLE PRECISION NOT NULL,   -- sum of submit-to-start waits of finished files
    throughput_sum  DOUBLE PRECISION NOT NULL,   -- sum of per-file throughputs (bytes/s) of finished files
    throughput_max  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (key_id, bin_seconds, bin_start)
) WITH (fillfactor = 50);
INSERT INTO rollup_bin
SELECT k.id, r.bin_seconds, r.bin_start, r.files_done, r.files_failed, r.files_canceled, r.bytes, r.size_done, r.transfer_s,
       r.prepare_s, r.checksum_s, r.queue_s, r.throughput_sum, r.throughput_max
FROM rollup r JOIN rollup_key k ON k.dim = r.dim AND k.k1 = r.k1 AND k.k2 = r.k2;
CREATE INDEX rollup_bin_time_idx ON rollup_bin (bin_seconds, bin_start);
DROP TABLE rollup;

-- Readers keep asking by names.
CREATE VIEW rollup AS
SELECT k.dim, k.k1, k.k2, b.bin_seconds, b.bin_start, b.files_done, b.files_failed, b.files_canceled, b.bytes, b.size_done,
       b.transfer_s, b.prepare_s, b.checksum_s, b.queue_s, b.throughput_sum, b.throughput_max
FROM rollup_bin b JOIN rollup_key k ON k.id = b.key_id;

-- Queued increments: one row per ingest transaction, its increments in arrays (element i of every array is one
-- increment), each key by id. One row with arrays instead of one row per increment: in a backfill, where nearly
-- every record opens a bin of its own, queueing row by row cost a third as much as storing the records themselves
-- (11 us and 244 bytes of WAL per row, one index entry each). Arrays are stored without compression: the CPU is
-- what an ingest runs short of. Rows queued before this migration are kept, 5,000 to an array row.
ALTER TABLE rollup_pending RENAME TO rollup_pending_v4;
CREATE TABLE rollup_pending (
    seq          BIGSERIAL          PRIMARY KEY,
    increments   INTEGER            NOT NULL,   -- the arrays' length
    bin_start    TIMESTAMPTZ[]      NOT NULL,   -- the 5-minute bin of the records' completed_at
    link_key     INTEGER[]          NOT NULL,   -- rollup_key.id of the link (source SE, destination SE)
    site_key     INTEGER[]          NOT NULL,   -- of the site pair ('unknown' when records name no site)
    vo_key       INTEGER[]          NOT NULL,   -- of the VO and activity
    done         BIGINT[]           NOT NULL,
    failed       BIGINT[]           NOT NULL,
    canceled     BIGINT[]           NOT NULL,
    bytes        BIGINT[]           NOT NULL,   -- bytes moved by finished files
    size_done    BIGINT[]           NOT NULL,   -- sizes of finished files
    t_s          DOUBLE PRECISION[] NOT NULL,
    p_s          DOUBLE PRECISION[] NOT NULL,
    c_s          DOUBLE PRECISION[] NOT NULL,
    q_s          DOUBLE PRECISION[] NOT NULL,
    thr_sum      DOUBLE PRECISION[] NOT NULL,
    thr_max      DOUBLE PRECISION[] NOT NULL
);
ALTER TABLE rollup_pending
    ALTER COLUMN bin_start SET STORAGE EXTERNAL, ALTER COLUMN link_key SET STORAGE EXTERNAL,
    ALTER COLUMN site_key SET STORAGE EXTERNAL, ALTER COLUMN vo_key SET STORAGE EXTERNAL,
    ALTER COLUMN done SET STORAGE EXTERNAL, ALTER COLUMN failed SET STORAGE EXTERNAL,
    ALTER COLUMN canceled SET STORAGE EXTERNAL, ALTER COLUMN bytes SET STORAGE EXTERNAL,
    ALTER COLUMN size_done SET STORAGE EXTERNAL, ALTER COLUMN t_s SET STORAGE EXTERNAL,
    ALTER COLUMN p_s SET STORAGE EXTERNAL, ALTER COLUMN c_s SET STORAGE EXTERNAL,
    ALTER COLUMN q_s SET STORAGE EXTERNAL, ALTER COLUMN thr_sum SET STORAGE EXTERNAL,
    ALTER COLUMN thr_max SET STORAGE EXTERNAL;
INSERT INTO rollup_pending (increments, bin_start, link_key, site_key, vo_key, done, failed, canceled, bytes, size_done,
                            t_s, p_s, c_s, q_s, thr_sum, thr_max)
SELECT count(*), array_agg(q.bin_start ORDER BY q.seq), array_agg(l.id ORDER BY q.seq), array_agg(s.id ORDER BY q.seq),
       array_agg(v.id ORDER BY q.seq), array_agg(q.done ORDER BY q.seq), array_agg(q.failed ORDER BY q.seq),
       array_agg(q.canceled ORDER BY q.seq), array_agg(q.bytes ORDER BY q.seq), array_agg(q.size_done ORDER BY q.seq),
       array_agg(q.t_s ORDER BY q.seq), array_agg(q.p_s ORDER BY q.seq), array_agg(q.c_s ORDER BY q.seq),
       array_agg(q.q_s ORDER BY q.seq), array_agg(q.thr_sum ORDER BY q.seq), array_agg(q.thr_max ORDER BY q.seq)
FROM rollup_pending_v4 q
JOIN rollup_key l ON l.dim = 'link' AND l.k1 = q.source_se AND l.k2 = q.dest_se
JOIN rollup_key s ON s.dim = 'site' AND s.k1 = q.source_site AND s.k2 = q.dest_site
JOIN rollup_key v ON v.dim = 'vo' AND v.k1 = q.vo AND v.k2 = q.activity
GROUP BY q.seq / 5000
ORDER BY q.seq / 5000;
DROP TABLE rollup_pending_v4;
