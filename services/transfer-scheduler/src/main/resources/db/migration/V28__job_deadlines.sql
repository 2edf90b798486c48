-- A job's deadline (params.deadline): whatever of it is unfinished then is cancelled.
ALTER TABLE job ADD COLUMN deadline TIMESTAMPTZ;
CREATE INDEX job_open_deadline_idx ON job (deadline) WHERE deadline IS NOT NULL AND state IN ('SUBMITTED', 'STAGING', 'ACTIVE');

-- When a file is due in the claims' order: its job's deadline, else its submission plus the engine's undated horizon
-- (6 hours unless configured otherwise). Within a queue and priority, files are claimed earliest first.
ALTER TABLE transfer_file ADD COLUMN claim_by TIMESTAMPTZ NOT NULL DEFAULT 'infinity';
UPDATE transfer_file SET claim_by = submitted_at + INTERVAL '6 hours'
    WHERE state NOT IN ('FINISHED', 'FAILED', 'CANCELED');

DROP INDEX transfer_file_due_idx;
CREATE INDEX transfer_file_due_idx ON transfer_file (source_se, dest_se, vo, activity, priority DESC, claim_by, file_id)
    WHERE state IN ('SUBMITTED', 'STAGING', 'READY');
