-- Link probes' records (transfer-scheduler runs them under the activity 'ferry-probe') are read per link over a
-- window for the dashboard's probe series (GET /probes). Anonymous reads go through indexes (V11); a partial index
-- holds only the probes' few records, so the ingest of production records does not pay for it.
CREATE INDEX transfer_record_probe_idx ON transfer_record (source_se, dest_se, completed_at) WHERE activity = 'ferry-probe';
