-- Per-VO rights on each SE (finding 2 of issue 20), as the SE catalogue shows them:
--   {"open": false, "rules": [{"vo": "atlas", "read": true, "write": true, "path": "/atlas/"}]}
-- "open": any VO may read and write anywhere under the SE; otherwise only what a rule grants (path relative to the
-- SE's base URL, matched segment-wise on the decoded path). No rules: nobody may use the SE.
--
-- SEs registered before rights existed are not opened to every VO: an SE is open only where an operator says so.
-- Each keeps what it was used for: a VO whose files (queued or done) read from it may read it, one whose files were
-- written to it may write it, on the whole SE; so queued work goes on, and every other VO is refused. An operator
-- narrows or widens them with PUT /config/se/{name}. SEs registered from now on without "access" are closed.
ALTER TABLE storage_endpoint ADD COLUMN access JSONB;
UPDATE storage_endpoint se SET access = jsonb_build_object('open', false, 'rules', COALESCE((
    SELECT jsonb_agg(jsonb_build_object('vo', used.vo, 'read', used.reads, 'write', used.writes, 'path', NULL)
                     ORDER BY used.vo)
    FROM (SELECT f.vo, bool_or(f.source_se = se.name) AS reads, bool_or(f.dest_se = se.name) AS writes
          FROM transfer_file f
          WHERE f.source_se = se.name OR f.dest_se = se.name
          GROUP BY f.vo) used), '[]'::jsonb));
ALTER TABLE storage_endpoint ALTER COLUMN access SET NOT NULL,
                             ALTER COLUMN access SET DEFAULT '{"open": false, "rules": []}';
