-- FTS3's ARCHIVING file state: a copy to a tape SE for a job with archive_timeout waits here until Tape REST's
-- archiveinfo says the file is on tape. The archive poll finds the due ones through this index (few rows, often none).
CREATE INDEX transfer_file_archiving_idx ON transfer_file (next_attempt_at) WHERE state = 'ARCHIVING';
