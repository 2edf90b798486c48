-- The per-link index on raw records keyed by a 4-byte hash of the link instead of the two SE names. Every ingested
-- record inserts into this index; with the names (two text keys per entry) it was the largest single cost of the
-- ingest (1 M rows inserted in 17.2 s with it, 9.9 s without, 12.8 s with the hash). Queries give the hash and the
-- names (RecordAnalysis.LINK): a hash shared by two links only costs a recheck.
DROP INDEX transfer_record_link_time_idx;
CREATE INDEX transfer_record_link_hash_time_idx ON transfer_record (hashtext(source_se || ' ' || dest_se), completed_at);
