-- The transfer engine: queue bookkeeping on each file, the retry history, the optimizer's decisions and the outbox
-- of transfer records for rate-aggregator.
ALTER TABLE transfer_file
    ADD COLUMN priority           INTEGER     NOT NULL DEFAULT 3,
    -- a file is not picked (prepared, retried) before this time
    ADD COLUMN next_attempt_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    -- the scheduler replica preparing or moving the file, and until when its claim holds without renewal
    ADD COLUMN lease_owner        VARCHAR(100),
    ADD COLUMN lease_until        TIMESTAMPTZ,
    ADD COLUMN prepare_started_at TIMESTAMPTZ,
    ADD COLUMN prepared_at        TIMESTAMPTZ,
    ADD COLUMN stage_request      TEXT,
    ADD COLUMN source_size        BIGINT,
    ADD COLUMN source_ranges      BOOLEAN     NOT NULL DEFAULT FALSE,
    -- a previous attempt of this file may have written the destination (its scheduler died mid-transfer)
    ADD COLUMN dest_ours          BOOLEAN     NOT NULL DEFAULT FALSE,
    ADD COLUMN streams            INTEGER,
    ADD COLUMN bytes_transferred  BIGINT,
    ADD COLUMN throughput         DOUBLE PRECISION;

UPDATE transfer_file f SET priority = j.priority FROM job j WHERE j.job_id = f.job_id;

CREATE INDEX transfer_file_due_idx ON transfer_file (source_se, dest_se, vo, activity, priority DESC, file_id)
    WHERE state IN ('SUBMITTED', 'STAGING', 'READY');
CREATE INDEX transfer_file_active_idx ON transfer_file (source_se, dest_se) WHERE state = 'ACTIVE';
CREATE INDEX transfer_file_finished_idx ON transfer_file (source_se, dest_se, finish_time) WHERE finish_time IS NOT NULL;

-- One row per failed attempt that was retried (FTS3's /jobs/{id}/files/{file_id}/retries).
CREATE TABLE file_retry (
    file_id     BIGINT      NOT NULL REFERENCES transfer_file (file_id) ON DELETE CASCADE,
    attempt     INTEGER     NOT NULL,
    datetime    TIMESTAMPTZ NOT NULL DEFAULT now(),
    reason      TEXT        NOT NULL,
    error_code  VARCHAR(40) NOT NULL,
    error_phase VARCHAR(20) NOT NULL,
    PRIMARY KEY (file_id, attempt)
);

-- The optimizer's current target per link, and every decision with its rationale.
CREATE TABLE link_state (
    source_se      VARCHAR(100)     NOT NULL,
    dest_se        VARCHAR(100)     NOT NULL,
    active_target  INTEGER          NOT NULL,
    ema_throughput DOUBLE PRECISION,
    best_active    INTEGER,
    best_ema       DOUBLE PRECISION,
    hold_rounds    INTEGER          NOT NULL DEFAULT 0,
    updated_at     TIMESTAMPTZ      NOT NULL DEFAULT now(),
    PRIMARY KEY (source_se, dest_se)
);

CREATE TABLE optimizer_decision (
    id             BIGSERIAL        PRIMARY KEY,
    source_se      VARCHAR(100)     NOT NULL,
    dest_se        VARCHAR(100)     NOT NULL,
    decided_at     TIMESTAMPTZ      NOT NULL DEFAULT now(),
    previous       INTEGER          NOT NULL,
    active         INTEGER          NOT NULL,
    throughput     DOUBLE PRECISION NOT NULL,
    ema_throughput DOUBLE PRECISION NOT NULL,
    success_rate   DOUBLE PRECISION,
    samples        INTEGER          NOT NULL,
    queued         INTEGER          NOT NULL,
    running        INTEGER          NOT NULL,
    rationale      TEXT             NOT NULL
);
CREATE INDEX optimizer_decision_link_idx ON optimizer_decision (source_se, dest_se, decided_at DESC);

-- Transfer records written with the state change that produced them and delivered to rate-aggregator later;
-- a delivered record is deleted.
CREATE TABLE record_outbox (
    record_id       VARCHAR(120) PRIMARY KEY,
    payload         TEXT         NOT NULL,
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    attempts        INTEGER      NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ  NOT NULL DEFAULT now(),
    last_error      TEXT
);
CREATE INDEX record_outbox_due_idx ON record_outbox (next_attempt_at);

-- A job's state follows from whether any of its files is open, active, staging or done: one index probe each.
CREATE INDEX transfer_file_job_state_idx ON transfer_file (job_id, state);
