-- The token a job was submitted with, where its issuer exchanges tokens for the scheduler and some files brought no
-- storage tokens of their own (FTS3's "single token" submission). Submission only seals and stores it; the engine
-- exchanges it once for a long-lived one (a refresh token where the issuer grants offline_access, else the access
-- token it answers), from which it obtains the narrowed tokens of job_storage_token. Seal numbers: -1 the
-- submitter's token, -2 the long-lived one, job_storage_token.token_no the narrowed ones.
CREATE TABLE job_submitter_token (
    job_id      UUID        PRIMARY KEY REFERENCES job (job_id) ON DELETE CASCADE,
    sealed      BYTEA       NOT NULL,
    issuer      TEXT        NOT NULL,
    expires_at  TIMESTAMPTZ NOT NULL,
    long_lived  BYTEA,
    long_kind   VARCHAR(13) CHECK (long_kind IN ('refresh_token', 'access_token')),
    -- the issuer's refusal: the job's files that need a token from it fail with this reason
    refused     TEXT,
    -- transient failures at the issuer in a row, and when it may be asked again (exponential backoff)
    failures    INTEGER     NOT NULL DEFAULT 0,
    next_try_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX job_submitter_token_due ON job_submitter_token (next_try_at) WHERE long_lived IS NULL AND refused IS NULL;

-- One narrowed token per job, SE, side and SE origin: scope storage.read:/storage.modify:<the job's common path
-- below the SE's base>, audience the origin; obtained at the first copy that needs it and reused until near expiry.
CREATE TABLE job_storage_token (
    job_id     UUID        NOT NULL REFERENCES job_submitter_token (job_id) ON DELETE CASCADE,
    se         TEXT        NOT NULL,
    side       VARCHAR(11) NOT NULL CHECK (side IN ('source', 'destination')),
    audience   TEXT        NOT NULL,
    scope      TEXT        NOT NULL,
    token_no   INTEGER     NOT NULL,
    sealed     BYTEA,
    expires_at TIMESTAMPTZ,
    refused    TEXT,
    PRIMARY KEY (job_id, se, side, audience)
);
