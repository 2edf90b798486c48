-- Rollup rows are found through their key: readers name a dimension (and maybe the pair), which gives the key ids,
-- and the primary key (key_id, bin_seconds, bin_start) serves each key's time range. The index on
-- (bin_seconds, bin_start) alone cost every new rollup row a second index entry (in a backfill nearly every
-- increment opens a 5-minute row of its own) for queries that did as well without it.
DROP INDEX rollup_bin_time_idx;
