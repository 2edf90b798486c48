-- Value permissions (Handle.net's four flags: admin read, admin write, public read, public write) are the columns
-- admin_read .. pub_write of V1, from now on written from each value's "permissions" and honoured on every read.
-- V1 gave them NOT NULL defaults of 1110, which is Handle.net's default, so every existing value is 1110 already
-- and needs no update here.

-- A 10320/loc value's locations, parsed once when the value is written, so that no resolution parses XML.
-- NULL for other types (and for 10320/loc values written before this migration, which are parsed when loaded).
ALTER TABLE handle_value ADD COLUMN locations JSONB;

-- Who bound a logical name: its subject and VO may unbind it (so may the bound handle's admins). NULL for names
-- bound before this migration, which only the handle's admins and handles:admin may unbind.
ALTER TABLE logical_name ADD COLUMN owner_sub VARCHAR(200);
ALTER TABLE logical_name ADD COLUMN owner_vo VARCHAR(100);
