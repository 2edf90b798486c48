-- Job webhooks (docs/webhooks.md). webhook_vo: per VO, the hosts an administrator allows webhooks to and the HMAC
-- secret, sealed by the scheduler's storage-tokens key. webhook_event: the outbox, one row an event, written by
-- triggers in the transaction of the state change that causes it, whichever code path made it (engine, cancel,
-- expiry); the event id is fixed here and sent with every retry.
CREATE TABLE webhook_vo (
    vo                VARCHAR(100) PRIMARY KEY,
    allowed_hosts     TEXT[]       NOT NULL DEFAULT '{}',
    secret            BYTEA,
    secret_created_at TIMESTAMPTZ,
    updated_at        TIMESTAMPTZ  NOT NULL DEFAULT now()
);

CREATE TABLE webhook_event (
    event_id        UUID         PRIMARY KEY DEFAULT gen_random_uuid(),
    job_id          UUID         NOT NULL,
    vo              VARCHAR(100) NOT NULL,
    kind            VARCHAR(16)  NOT NULL CHECK (kind IN ('job.finished', 'file.failed')),
    url             TEXT         NOT NULL,
    body            JSONB        NOT NULL,
    attempts        INTEGER      NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ  NOT NULL DEFAULT now(),
    delivered_at    TIMESTAMPTZ,
    failed_at       TIMESTAMPTZ,
    last_error      TEXT,
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now()
);
-- what the delivery loop claims: undecided events, soonest first
CREATE INDEX webhook_event_due_idx ON webhook_event (next_attempt_at) WHERE delivered_at IS NULL AND failed_at IS NULL;
CREATE INDEX webhook_event_job_idx ON webhook_event (job_id, created_at);
-- what the retention sweep deletes
CREATE INDEX webhook_event_done_idx ON webhook_event ((coalesce(delivered_at, failed_at))) WHERE delivered_at IS NOT NULL OR failed_at IS NOT NULL;

CREATE FUNCTION webhook_job_finished() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    hook JSONB;
    id UUID := gen_random_uuid();
BEGIN
    -- the text is looked at before it is parsed: most jobs name no webhook
    IF NEW.params LIKE '%"webhook"%' THEN
        hook := NEW.params::jsonb -> 'webhook';
    END IF;
    IF jsonb_typeof(hook) = 'object' AND jsonb_typeof(hook -> 'url') = 'string' THEN
        INSERT INTO webhook_event (event_id, job_id, vo, kind, url, body) VALUES (id, NEW.job_id, NEW.vo, 'job.finished', hook ->> 'url',
            jsonb_build_object('event_id', id::text, 'type', 'job.finished', 'job_id', NEW.job_id::text, 'vo', NEW.vo,
                'job_state', NEW.state, 'reason', NEW.reason, 'submitted_at', NEW.submitted_at, 'finished_at', coalesce(NEW.finished_at, now()),
                'files', (SELECT coalesce(jsonb_object_agg(state, n), '{}'::jsonb)
                          FROM (SELECT state, count(*) AS n FROM transfer_file WHERE job_id = NEW.job_id GROUP BY state) s)));
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER job_finished_to_webhook AFTER UPDATE OF state ON job
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state AND NEW.state IN ('FINISHED', 'FAILED', 'FINISHEDDIRTY', 'CANCELED')
                       AND OLD.state NOT IN ('FINISHED', 'FAILED', 'FINISHEDDIRTY', 'CANCELED'))
    EXECUTE FUNCTION webhook_job_finished();

CREATE FUNCTION webhook_file_failed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    hook JSONB;
    id UUID := gen_random_uuid();
BEGIN
    SELECT CASE WHEN params LIKE '%"webhook"%' THEN params::jsonb -> 'webhook' END INTO hook FROM job WHERE job_id = NEW.job_id;
    IF jsonb_typeof(hook) = 'object' AND jsonb_typeof(hook -> 'url') = 'string' AND (hook -> 'file_failures') = 'true'::jsonb THEN
        INSERT INTO webhook_event (event_id, job_id, vo, kind, url, body) VALUES (id, NEW.job_id, NEW.vo, 'file.failed', hook ->> 'url',
            jsonb_build_object('event_id', id::text, 'type', 'file.failed', 'job_id', NEW.job_id::text, 'vo', NEW.vo,
                'file_id', NEW.file_id, 'file_index', NEW.file_index, 'source_url', NEW.source_url, 'dest_url', NEW.dest_url,
                'reason', NEW.reason, 'error_code', NEW.error_code, 'attempts', NEW.attempts, 'failed_at', coalesce(NEW.finish_time, now())));
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER file_failed_to_webhook AFTER UPDATE OF state ON transfer_file
    FOR EACH ROW WHEN (OLD.state IS DISTINCT FROM NEW.state AND NEW.state = 'FAILED') EXECUTE FUNCTION webhook_file_failed();
