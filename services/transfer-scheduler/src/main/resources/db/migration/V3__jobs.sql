-- FTS3-style jobs: a job is a set of file copies submitted together by one VO.
CREATE TABLE job (
    job_id            UUID         PRIMARY KEY,
    vo                VARCHAR(100) NOT NULL,
    user_dn           VARCHAR(200) NOT NULL,
    state             VARCHAR(15)  NOT NULL,
    priority          INTEGER      NOT NULL CHECK (priority BETWEEN 1 AND 5),
    verify_checksum   VARCHAR(6)   NOT NULL CHECK (verify_checksum IN ('none', 'source', 'target', 'both')),
    overwrite         BOOLEAN      NOT NULL,
    retry             INTEGER      NOT NULL,
    retry_delay       INTEGER      NOT NULL,
    max_time_in_queue INTEGER,
    timeout           INTEGER,
    nostreams         INTEGER,
    job_metadata      TEXT,
    params            TEXT         NOT NULL,   -- the submitted params as JSON, unknown ones included
    source_se         VARCHAR(100),
    dest_se           VARCHAR(100),
    submitted_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    finished_at       TIMESTAMPTZ,
    reason            TEXT
);
CREATE INDEX job_vo_state_idx ON job (vo, state, submitted_at DESC);

CREATE TABLE transfer_file (
    file_id        BIGSERIAL    PRIMARY KEY,
    job_id         UUID         NOT NULL REFERENCES job (job_id) ON DELETE CASCADE,
    file_index     INTEGER      NOT NULL,
    vo             VARCHAR(100) NOT NULL,
    activity       VARCHAR(100) NOT NULL,
    source_url     TEXT         NOT NULL,
    dest_url       TEXT         NOT NULL,
    source_se      VARCHAR(100) NOT NULL,
    dest_se        VARCHAR(100) NOT NULL,
    alternatives   TEXT,                     -- further sources, JSON list, tried when the first fails
    filesize       BIGINT       CHECK (filesize >= 0),
    checksum       VARCHAR(80),
    file_metadata  TEXT,
    state          VARCHAR(12)  NOT NULL,
    reason         TEXT,
    error_code     VARCHAR(40),
    error_phase    VARCHAR(20),
    attempts       INTEGER      NOT NULL DEFAULT 0,
    submitted_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    start_time     TIMESTAMPTZ,
    finish_time    TIMESTAMPTZ
);
CREATE INDEX transfer_file_job_idx ON transfer_file (job_id, file_index);
CREATE INDEX transfer_file_queue_idx ON transfer_file (state, vo, source_se, dest_se);
