-- Anonymous reads go through indexes, never through every row (issue 20, finding 9).
-- /compare?se= and ?site= read raw records through the per-link index (V9): the links come from the rollup keys. A key
-- of dimension 'se' (k1 = SE, k2 = site) tells which SEs a site has; ingest registers them (RollupKeys) and the ones of
-- records stored before this migration are added here. Keys are few; their index on k2 finds an SE's incoming links and
-- a site's SEs.
INSERT INTO rollup_key (dim, k1, k2)
SELECT 'se', source_se, source_site FROM transfer_record WHERE source_site IS NOT NULL
UNION
SELECT 'se', dest_se, dest_site FROM transfer_record WHERE dest_site IS NOT NULL
ON CONFLICT (dim, k1, k2) DO NOTHING;
CREATE INDEX rollup_key_k2_idx ON rollup_key (dim, k2);

-- Measurements newest first towards a destination (/measurements/latest, ?destination=) and overall (/measurements):
-- perfSONAR results are few compared with transfer records, so two more indexes cost little.
CREATE INDEX measurement_destination_idx ON measurement (destination, measured_at DESC);
CREATE INDEX measurement_time_idx ON measurement (measured_at DESC);
