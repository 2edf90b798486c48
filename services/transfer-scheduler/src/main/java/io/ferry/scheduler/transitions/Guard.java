package io.ferry.scheduler.transitions;

/**
 * Which claim on the file the change needs. Every guard is given $1 = file id and $2 = this replica; guards that
 * do not care who holds the file still mention $2 (PostgreSQL must be able to type every parameter). {@code {epoch}}
 * stands for the claim epoch the change was started with: a later claim of the file refuses it.
 */
public enum Guard {
    /** this replica is preparing it */
    PREPARING("state IN ('SUBMITTED', 'STAGING') AND lease_owner = $2 AND claim_epoch = {epoch}"),
    /** this replica is moving it */
    RUNNING("state = 'ACTIVE' AND lease_owner = $2 AND claim_epoch = {epoch}"),
    /** its replica stopped renewing the lease */
    LEASE_LAPSED("state = 'ACTIVE' AND lease_until < now() AND claim_epoch = {epoch} AND $2::text IS NOT NULL"),
    /** its replica stopped beating (DeadReplicaSweeper) */
    ABANDONED("state = 'ACTIVE' AND claim_epoch = {epoch} AND $2::text IS NOT NULL"),
    /** still queued */
    QUEUED("state IN ('SUBMITTED', 'STAGING', 'READY') AND $2::text IS NOT NULL"),
    /** copied to tape storage, waiting to be on tape (no lease: any replica's archive poll may end it) */
    ARCHIVING("state = 'ARCHIVING' AND $2::text IS NOT NULL");

    final String where;

    Guard(String where) {
        this.where = where;
    }
}
