-- FTS3's per-file SciTag flow label (experiment id << 6 | activity id, as Rucio computes it), sent to storage as the
-- SciTag request header and echoed in the completion message; null when the file has none.
ALTER TABLE transfer_file ADD COLUMN scitag INTEGER CHECK (scitag BETWEEN 65 AND 65535);
