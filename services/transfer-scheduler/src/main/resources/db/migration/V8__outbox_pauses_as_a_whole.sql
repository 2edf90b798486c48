-- Delivery now pauses as a whole while rate-aggregator is away (OutboxService) instead of marking every waiting
-- record after every failed try, so the per-record attempt count and last error are gone; next_attempt_at stays as
-- the delivery order (it is the time the record was written).
ALTER TABLE record_outbox DROP COLUMN attempts, DROP COLUMN last_error;

-- A file's lease is claimed and renewed without changing any indexed column: with room left on its page the new
-- row version is a HOT update, which writes none of transfer_file's seven indexes (new pages only).
ALTER TABLE transfer_file SET (fillfactor = 80);
