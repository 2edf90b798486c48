-- FTS3's state and start messages (transfer.fts_monitoring_state on every change of a file's state,
-- transfer.fts_monitoring_start when its copy starts) through the completion messages' outbox: a trigger copies each
-- change in the transaction that makes it, whichever code path made it, only while monitoring_stomp says so (states:
-- the scheduler's setting for these two, beside enabled).
-- kind says which message a row becomes; the publisher reads the job's fields when it sends it.
ALTER TABLE monitoring_stomp ADD COLUMN states BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE monitoring_outbox ADD COLUMN kind VARCHAR(8) NOT NULL DEFAULT 'complete'
    CHECK (kind IN ('complete', 'state', 'start'));

CREATE FUNCTION monitoring_state_copy() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    change TEXT;
BEGIN
    IF (SELECT enabled AND states FROM monitoring_stomp) THEN
        change := jsonb_build_object('job_id', NEW.job_id::text, 'file_id', NEW.file_id, 'vo', NEW.vo,
            'source_url', NEW.source_url, 'dest_url', NEW.dest_url, 'file_state', NEW.state, 'reason', NEW.reason,
            'attempts', NEW.attempts, 'filesize', NEW.filesize, 'submitted_at', NEW.submitted_at,
            'staging_start', NEW.staging_start, 'staging_finished', NEW.staging_finished, 'at', clock_timestamp())::text;
        INSERT INTO monitoring_outbox (record_id, payload, kind)
            VALUES (NEW.job_id::text || '/' || NEW.file_id || '/' || NEW.state, change, 'state');
        IF NEW.state = 'ACTIVE' THEN
            INSERT INTO monitoring_outbox (record_id, payload, kind)
                VALUES (NEW.job_id::text || '/' || NEW.file_id || '/start/' || NEW.attempts, change, 'start');
        END IF;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER file_state_to_monitoring AFTER UPDATE OF state ON transfer_file
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state) EXECUTE FUNCTION monitoring_state_copy();
