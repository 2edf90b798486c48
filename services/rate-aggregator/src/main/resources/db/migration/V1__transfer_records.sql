-- One row per file transfer attempt, as transfer-scheduler reports it (or as a site imports its history).
CREATE TABLE transfer_record (
    id                      VARCHAR(200) PRIMARY KEY,  -- job id / file id / attempt: stable, so re-delivery is idempotent
    job_id                  VARCHAR(100),
    file_id                 BIGINT,
    attempt                 INTEGER      NOT NULL DEFAULT 1,
    vo                      VARCHAR(100) NOT NULL,
    activity                VARCHAR(100) NOT NULL DEFAULT 'default',
    source_se               VARCHAR(100) NOT NULL,
    dest_se                 VARCHAR(100) NOT NULL,
    source_site             VARCHAR(100),
    dest_site               VARCHAR(100),
    source_url              TEXT,
    dest_url                TEXT,
    filesize                BIGINT       CHECK (filesize >= 0),
    bytes_transferred       BIGINT       NOT NULL DEFAULT 0 CHECK (bytes_transferred >= 0),
    streams                 INTEGER      CHECK (streams BETWEEN 1 AND 64),
    submitted_at            TIMESTAMPTZ,
    prepare_started_at      TIMESTAMPTZ,
    prepare_ended_at        TIMESTAMPTZ,
    transfer_started_at     TIMESTAMPTZ,
    transfer_ended_at       TIMESTAMPTZ,
    checksum_started_at     TIMESTAMPTZ,
    checksum_ended_at       TIMESTAMPTZ,
    throughput_bytes_per_s  DOUBLE PRECISION CHECK (throughput_bytes_per_s >= 0),
    outcome                 VARCHAR(10)  NOT NULL CHECK (outcome IN ('FINISHED', 'FAILED', 'CANCELED')),
    error_code              VARCHAR(40),
    error_phase             VARCHAR(20),
    error_message           TEXT,
    retryable               BOOLEAN,
    completed_at            TIMESTAMPTZ  NOT NULL,     -- when the attempt ended: the time axis of every rollup
    ingested_at             TIMESTAMPTZ  NOT NULL DEFAULT now()
);
CREATE INDEX transfer_record_link_time_idx ON transfer_record (source_se, dest_se, completed_at);
CREATE INDEX transfer_record_completed_idx ON transfer_record (completed_at);
