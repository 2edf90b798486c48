-- FTS3's monitoring messages (transfer.fts_monitoring_complete) for a STOMP broker: every transfer record written to
-- record_outbox is copied here in the same transaction, by a trigger, so all the paths that write records (some in
-- one statement with the state change) produce a message without knowing of it. Only while monitoring_stomp says so:
-- with no broker configured nothing piles up. seq is the publishing order; a published message is deleted.
CREATE TABLE monitoring_stomp (
    singleton BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
    enabled   BOOLEAN NOT NULL
);
INSERT INTO monitoring_stomp (enabled) VALUES (FALSE);

CREATE TABLE monitoring_outbox (
    seq        BIGSERIAL    PRIMARY KEY,
    record_id  VARCHAR(120) NOT NULL,
    payload    TEXT         NOT NULL,
    created_at TIMESTAMPTZ  NOT NULL DEFAULT now()
);

CREATE FUNCTION monitoring_outbox_copy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT enabled FROM monitoring_stomp) THEN
        INSERT INTO monitoring_outbox (record_id, payload) VALUES (NEW.record_id, NEW.payload);
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER record_outbox_to_monitoring AFTER INSERT ON record_outbox
    FOR EACH ROW EXECUTE FUNCTION monitoring_outbox_copy();
