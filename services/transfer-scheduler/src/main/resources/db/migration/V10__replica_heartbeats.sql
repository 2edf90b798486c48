-- Each scheduler replica beats here about every second (ReplicaHeartbeat). A replica silent for the heartbeat
-- timeout is dead: its claimed files go back to the queue at once (DeadReplicaSweeper) instead of holding their
-- link slots until their leases lapse; the lease stays as the backstop for a replica that beats but hangs.
CREATE TABLE scheduler_replica (
    -- one process start (name and incarnation), as stamped in transfer_file.lease_owner
    replica_id VARCHAR(100) PRIMARY KEY,
    -- what the replica calls itself (ferry.scheduler.engine.instance-id, else its host name)
    name       VARCHAR(100) NOT NULL,
    started_at TIMESTAMPTZ  NOT NULL DEFAULT now(),
    beat_at    TIMESTAMPTZ  NOT NULL DEFAULT now(),
    -- declared dead by another replica (or retired by its own drain): it may not beat again under this id
    dead       BOOLEAN      NOT NULL DEFAULT FALSE
);

-- Incremented by every claim of the file. The state changes of a claimed file require the epoch its claim took, so a
-- copy that outlived its claim (its replica was declared dead and the file claimed again) cannot write its outcome.
-- Not indexed: claims stay HOT updates (V8).
ALTER TABLE transfer_file ADD COLUMN claim_epoch BIGINT NOT NULL DEFAULT 0;
