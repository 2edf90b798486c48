-- A link's rate cap in bytes per second (NULL: none), shared by every VO's copies on the link. A job's cap is
-- params.max_rate, read from the stored params.
ALTER TABLE link_config ADD COLUMN max_rate BIGINT CHECK (max_rate BETWEEN 100000 AND 100000000000);
