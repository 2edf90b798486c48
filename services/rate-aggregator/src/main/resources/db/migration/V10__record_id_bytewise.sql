-- Record ids are compared byte by byte: they are opaque (job / file / attempt), nobody sorts them, and every
-- ingested record descends the primary key with a dozen comparisons. Under the database's default collation each
-- comparison copied both strings and called strcoll; in isolation 1 M inserts of such ids took 12-18 % less time.
ALTER TABLE transfer_record ALTER COLUMN id TYPE VARCHAR(200) COLLATE "C";
