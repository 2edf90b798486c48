-- A directory job's request (a file entry with recursive: true): stored with the job, which has no files until the
-- engine listed the source tree; the row goes once the files are in (or the job failed). lease_owner/lease_until: the
-- replica listing it now, so that two replicas never list one job and a crashed one's listing is taken over.
CREATE TABLE directory_request (
    job_id       UUID PRIMARY KEY REFERENCES job (job_id) ON DELETE CASCADE,
    source_url   TEXT        NOT NULL,
    dest_url     TEXT        NOT NULL,
    source_se    TEXT        NOT NULL,
    dest_se      TEXT        NOT NULL,
    include      TEXT[]      NOT NULL DEFAULT '{}',
    exclude      TEXT[]      NOT NULL DEFAULT '{}',
    max_files    INT         NOT NULL,
    activity     TEXT        NOT NULL,
    file_metadata TEXT,
    scitag       INT,
    attempts     INT         NOT NULL DEFAULT 0,
    lease_owner  TEXT,
    lease_until  TIMESTAMPTZ NOT NULL DEFAULT '-infinity'
);
CREATE INDEX directory_request_due_idx ON directory_request (lease_until);
