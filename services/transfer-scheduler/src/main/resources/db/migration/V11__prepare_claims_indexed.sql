-- The files being prepared (SUBMITTED and leased), so the prepare pass counts them without reading every waiting
-- file of the queue (FileQueue.snapshot); small: only the prepare claims in flight.
CREATE INDEX transfer_file_preparing_idx ON transfer_file (source_se, dest_se, vo, activity)
    WHERE state = 'SUBMITTED' AND lease_until IS NOT NULL;
