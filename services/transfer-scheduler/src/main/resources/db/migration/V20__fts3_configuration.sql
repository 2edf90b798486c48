-- FTS3's configuration calls on FTS3's paths (/config/se, /config/shares, /config/activity_shares, /config/links),
-- beside Ferry's own (/endpoints, /shares, /links). What FTS3 configures and Ferry has a concept for goes to Ferry's
-- tables (SE limits, site, third-party copy; activity weights; link limits); the rest is kept here as given, so an
-- administrator reads back what was set, and is not acted on (the scheduler README says which fields those are).

-- Per SE: FTS3's se_info fields Ferry has no column for (throughput caps, udt, ipv6, metadata, debug_level, eviction,
-- tpc_support as spelt) and its per-VO operation limits ({"atlas": {"staging": 100}}).
CREATE TABLE fts3_se_config (
    se_name    VARCHAR(100) PRIMARY KEY REFERENCES storage_endpoint (name) ON DELETE CASCADE,
    se_info    JSONB NOT NULL DEFAULT '{}',
    operations JSONB NOT NULL DEFAULT '{}'
);

-- FTS3's per-link VO shares (t_share_config): source and destination as scheme://host. Ferry's fair share is per VO
-- across all links (vo_share), so these are listed and not acted on.
CREATE TABLE fts3_share_config (
    source      VARCHAR(150) NOT NULL,
    destination VARCHAR(150) NOT NULL,
    vo          VARCHAR(100) NOT NULL,
    share       INTEGER      NOT NULL CHECK (share > 0),
    PRIMARY KEY (source, destination, vo)
);

-- FTS3's "active" flag of a VO's activity shares: an inactive VO's activities are not weighted (the scheduling
-- inputs skip its activity_share rows), its weights are kept. No row: active.
CREATE TABLE activity_share_state (
    vo     VARCHAR(100) PRIMARY KEY,
    active BOOLEAN NOT NULL
);

-- FTS3's link names (/config/links/{symbolicname}) and the link fields Ferry does not act on.
ALTER TABLE link_config
    ADD COLUMN symbolic_name   VARCHAR(255) UNIQUE,
    ADD COLUMN tcp_buffer_size INTEGER,
    ADD COLUMN no_delegation   BOOLEAN NOT NULL DEFAULT FALSE;
