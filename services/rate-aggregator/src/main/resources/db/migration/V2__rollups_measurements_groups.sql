-- Transfer rollups, kept longer than raw records. One row per (bin size, bin start, dimension, key pair):
--   dim 'link' = (source SE, destination SE), 'site' = (source site, destination site), 'vo' = (VO, activity).
-- Maintained in the same statement that stores new records, so every record is counted exactly once.
CREATE TABLE rollup (
    bin_seconds     INTEGER          NOT NULL,
    bin_start       TIMESTAMPTZ      NOT NULL,
    dim             VARCHAR(4)       NOT NULL,
    k1              VARCHAR(100)     NOT NULL,
    k2              VARCHAR(100)     NOT NULL,
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
    PRIMARY KEY (dim, bin_seconds, k1, k2, bin_start)
);
CREATE INDEX rollup_time_idx ON rollup (dim, bin_seconds, bin_start);

-- perfSONAR-style network tests between hosts or SEs.
CREATE TABLE measurement (
    id              BIGSERIAL        PRIMARY KEY,
    source          VARCHAR(253)     NOT NULL,
    destination     VARCHAR(253)     NOT NULL,
    tool            VARCHAR(50)      NOT NULL,
    measured_at     TIMESTAMPTZ      NOT NULL,
    throughput_bps  DOUBLE PRECISION CHECK (throughput_bps >= 0),
    rtt_ms          DOUBLE PRECISION CHECK (rtt_ms > 0),
    loss            DOUBLE PRECISION CHECK (loss BETWEEN 0 AND 1),
    retransmits     BIGINT           CHECK (retransmits >= 0),
    streams         INTEGER          CHECK (streams > 0),
    ingested_at     TIMESTAMPTZ      NOT NULL DEFAULT now(),
    UNIQUE (source, destination, tool, measured_at)
);
CREATE INDEX measurement_pair_idx ON measurement (source, destination, measured_at DESC);

-- User-defined groups of sites, like the old FTS channels "UKT2s-RAL".
CREATE TABLE site_group (
    name       VARCHAR(100) PRIMARY KEY,
    created_at TIMESTAMPTZ  NOT NULL DEFAULT now()
);
CREATE TABLE site_group_member (
    group_name VARCHAR(100) NOT NULL REFERENCES site_group (name) ON DELETE CASCADE,
    site       VARCHAR(100) NOT NULL,
    PRIMARY KEY (group_name, site)
);
