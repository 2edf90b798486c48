-- FTS3's multihop jobs (job_type 'H'): the files are hops of one chain; a hop waits NOT_USED until the one before it
-- finished. overwrite_hop: every hop but the last overwrites its destination.
ALTER TABLE job
    ADD COLUMN job_type      CHAR(1) NOT NULL DEFAULT 'N' CHECK (job_type IN ('N', 'H')),
    ADD COLUMN overwrite_hop BOOLEAN NOT NULL DEFAULT FALSE;

-- FTS3's staging_start and staging_finished: when a file's stage request was accepted and when it came online.
ALTER TABLE transfer_file
    ADD COLUMN staging_start    TIMESTAMPTZ,
    ADD COLUMN staging_finished TIMESTAMPTZ;
