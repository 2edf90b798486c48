-- Link probes (SONAR's test transfers): operators schedule a file of a fixed size between two SEs every interval;
-- the scheduler creates the source itself, runs the copy as an ordinary job, removes both files afterwards, and
-- keeps each run's result as the link's probe series.
CREATE TABLE link_probe (
    probe_id          BIGSERIAL    PRIMARY KEY,
    source_se         VARCHAR(100) NOT NULL REFERENCES storage_endpoint (name) ON DELETE CASCADE,
    dest_se           VARCHAR(100) NOT NULL REFERENCES storage_endpoint (name) ON DELETE CASCADE,
    file_size         BIGINT       NOT NULL CHECK (file_size > 0),
    interval_seconds  INTEGER      NOT NULL CHECK (interval_seconds > 0),
    vo                VARCHAR(100) NOT NULL DEFAULT 'ops',
    enabled           BOOLEAN      NOT NULL DEFAULT TRUE,
    -- when the next run is due; a replica that starts a run moves it on by the interval under a row lock
    next_run          TIMESTAMPTZ  NOT NULL DEFAULT now(),
    created_at        TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_at        TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_by        VARCHAR(200) NOT NULL,
    CHECK (source_se <> dest_se)
);
CREATE INDEX link_probe_due_idx ON link_probe (next_run) WHERE enabled;

-- One run of a probe. A run whose source could not be created has no job (outcome NOT_STARTED, error says why);
-- the others are RUNNING until their job ended, then FINISHED, FAILED or CANCELED with the copy's figures.
-- source_url and dest_url stay until both files are removed (cleaned), also after the probe itself was deleted.
CREATE TABLE probe_run (
    run_id            BIGSERIAL    PRIMARY KEY,
    probe_id          BIGINT       REFERENCES link_probe (probe_id) ON DELETE SET NULL,
    source_se         VARCHAR(100) NOT NULL,
    dest_se           VARCHAR(100) NOT NULL,
    started_at        TIMESTAMPTZ  NOT NULL DEFAULT now(),
    job_id            UUID,
    source_url        TEXT,
    source_base       TEXT,
    dest_url          TEXT,
    dest_base         TEXT,
    file_size         BIGINT       NOT NULL,
    outcome           VARCHAR(20)  NOT NULL CHECK (outcome IN ('RUNNING', 'FINISHED', 'FAILED', 'CANCELED', 'NOT_STARTED')),
    finished_at       TIMESTAMPTZ,
    bytes_transferred BIGINT,
    throughput        DOUBLE PRECISION,
    duration_seconds  DOUBLE PRECISION,
    error_code        VARCHAR(40),
    error             TEXT,
    cleaned           BOOLEAN      NOT NULL DEFAULT FALSE
);
CREATE INDEX probe_run_series_idx ON probe_run (probe_id, started_at);
CREATE INDEX probe_run_link_idx ON probe_run (source_se, dest_se, started_at);
CREATE INDEX probe_run_open_idx ON probe_run (run_id) WHERE outcome = 'RUNNING' OR NOT cleaned;
