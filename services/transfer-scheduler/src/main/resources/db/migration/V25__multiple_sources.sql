-- Whether a file was submitted with more than one source (FTS3's multi-replica files: job_m_replica and the job_state
-- of its monitoring messages depend on it). alternatives empties as the sources are tried, so it cannot tell later.
ALTER TABLE transfer_file ADD COLUMN multiple_sources BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE transfer_file SET multiple_sources = TRUE WHERE alternatives IS NOT NULL AND alternatives <> '[]';
