-- Bearer tokens files bring toward storage (files[].source_tokens / destination_tokens), sealed with the scheduler's
-- storage-tokens key (AES-256-GCM, bound to job and token number): each distinct token once per job, and per file
-- which token goes to which of its URLs (a source's, tried in turn, or the destination's).
CREATE TABLE job_token (
    job_id     UUID        NOT NULL REFERENCES job (job_id) ON DELETE CASCADE,
    token_no   INTEGER     NOT NULL,
    sealed     BYTEA       NOT NULL,
    issuer     TEXT        NOT NULL,   -- its iss, which says whether it can be exchanged for a fresh one
    expires_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (job_id, token_no)
);

CREATE TABLE file_token (
    file_id  BIGINT      NOT NULL REFERENCES transfer_file (file_id) ON DELETE CASCADE,
    side     VARCHAR(11) NOT NULL CHECK (side IN ('source', 'destination')),
    url      TEXT        NOT NULL,
    job_id   UUID        NOT NULL,
    token_no INTEGER     NOT NULL,
    PRIMARY KEY (file_id, side, url),
    FOREIGN KEY (job_id, token_no) REFERENCES job_token (job_id, token_no) ON DELETE CASCADE
);

-- The engine looks a file's tokens up only for jobs that brought some.
ALTER TABLE job ADD COLUMN has_tokens BOOLEAN NOT NULL DEFAULT FALSE;

-- Whether Ferry's own storage identity may be used toward the SE when a file brings no credential for it.
ALTER TABLE storage_endpoint ADD COLUMN allow_service_identity BOOLEAN NOT NULL DEFAULT TRUE;
