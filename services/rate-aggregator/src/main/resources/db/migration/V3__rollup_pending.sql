-- Facts of newly stored records waiting to be folded into the rollups. Ingest adds them in the same statement
-- that stores the records; RollupWorker deletes a batch and adds it to the rollups in one statement, so each
-- record is counted exactly once even with several aggregator replicas (SKIP LOCKED) or a crash in between.
CREATE TABLE rollup_pending (
    seq               BIGSERIAL        PRIMARY KEY,
    completed_at      TIMESTAMPTZ      NOT NULL,
    source_se         VARCHAR(100)     NOT NULL,
    dest_se           VARCHAR(100)     NOT NULL,
    source_site       VARCHAR(100),
    dest_site         VARCHAR(100),
    vo                VARCHAR(100)     NOT NULL,
    activity          VARCHAR(100)     NOT NULL,
    done              INTEGER          NOT NULL,
    failed            INTEGER          NOT NULL,
    canceled          INTEGER          NOT NULL,
    bytes_transferred BIGINT           NOT NULL,
    filesize          BIGINT,
    t_s               DOUBLE PRECISION NOT NULL,
    p_s               DOUBLE PRECISION NOT NULL,
    c_s               DOUBLE PRECISION NOT NULL,
    q_s               DOUBLE PRECISION NOT NULL,
    thr               DOUBLE PRECISION NOT NULL
);
