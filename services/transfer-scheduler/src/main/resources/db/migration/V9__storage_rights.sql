-- Per-VO rights on each SE (finding 2 of issue 20), as the SE catalogue shows them:
--   {"open": false, "rules": [{"vo": "atlas", "read": true, "write": true, "path": "/atlas/"}]}
-- "open": any VO may read and write anywhere under the SE; otherwise only what a rule grants (path relative to the
-- SE's base URL, matched segment-wise on the decoded path). No rules: nobody may use the SE.
--
-- SEs registered before rights existed are made OPEN here, so that running deployments keep working exactly as
-- before; an operator narrows them with PUT /config/se/{name}. SEs registered from now on without "access" are
-- closed (the column default below).
ALTER TABLE storage_endpoint ADD COLUMN access JSONB;
UPDATE storage_endpoint SET access = '{"open": true, "rules": []}';
ALTER TABLE storage_endpoint ALTER COLUMN access SET NOT NULL,
                             ALTER COLUMN access SET DEFAULT '{"open": false, "rules": []}';
