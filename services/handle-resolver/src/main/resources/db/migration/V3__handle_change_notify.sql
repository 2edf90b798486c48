-- Every committed change to a handle or its values is announced on channel ferry_handle_changes, whoever made it
-- (any resolver replica, an admin's SQL, a bulk load), so each replica's in-memory resolution cache drops what
-- changed. Statement-level triggers with transition tables: one NOTIFY per changed handle, and a single '*'
-- (drop everything) for bulk changes, which would otherwise queue a notification per row. PostgreSQL delivers
-- notifications only on commit and folds identical ones within a transaction.
CREATE FUNCTION notify_handle_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT count(*) FROM (SELECT DISTINCT handle FROM changed LIMIT 1001) d) > 1000 THEN
        PERFORM pg_notify('ferry_handle_changes', '*');
    ELSE
        PERFORM pg_notify('ferry_handle_changes', d.handle) FROM (SELECT DISTINCT handle FROM changed) d;
    END IF;
    RETURN NULL;
END $$;

-- A trigger with transition tables can name only one event: three per table.
CREATE TRIGGER handle_inserted AFTER INSERT ON handle REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION notify_handle_changes();
CREATE TRIGGER handle_updated AFTER UPDATE ON handle REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION notify_handle_changes();
CREATE TRIGGER handle_deleted AFTER DELETE ON handle REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION notify_handle_changes();
CREATE TRIGGER handle_value_inserted AFTER INSERT ON handle_value REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION notify_handle_changes();
CREATE TRIGGER handle_value_updated AFTER UPDATE ON handle_value REFERENCING NEW TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION notify_handle_changes();
CREATE TRIGGER handle_value_deleted AFTER DELETE ON handle_value REFERENCING OLD TABLE AS changed
    FOR EACH STATEMENT EXECUTE FUNCTION notify_handle_changes();
