-- The web monitor reads files that ended, and retried attempts, within a recent window (last hour, day, week)
-- over every link at once: these indexes find them by time alone.
CREATE INDEX transfer_file_finish_time_idx ON transfer_file (finish_time) WHERE finish_time IS NOT NULL;
CREATE INDEX file_retry_datetime_idx ON file_retry (datetime);
