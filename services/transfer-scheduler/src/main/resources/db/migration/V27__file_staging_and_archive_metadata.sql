-- A file's own staging_metadata and archive_metadata, as FTS3 takes them per file (its clients move job-level ones
-- onto each file; Rucio sends staging_metadata for every staged file): JSON objects, sent with the file's stage request
-- (targetedMetadata) and with its copy to the destination (the ArchiveMetadata header).
ALTER TABLE transfer_file ADD COLUMN staging_metadata TEXT, ADD COLUMN archive_metadata TEXT;
