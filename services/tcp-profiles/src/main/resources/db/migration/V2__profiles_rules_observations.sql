-- Named, versioned TCP profiles. A profile without a site is global (administrators only).
CREATE TABLE profile (
    name            VARCHAR(100) PRIMARY KEY,
    site            VARCHAR(100),
    current_version INTEGER      NOT NULL,
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    created_by      VARCHAR(200) NOT NULL
);

-- Every change is a new version: who, when, what changed (diff against the previous version), why.
CREATE TABLE profile_version (
    profile            VARCHAR(100) NOT NULL REFERENCES profile (name) ON DELETE CASCADE,
    version            INTEGER      NOT NULL CHECK (version > 0),
    summary            TEXT,
    include_profile    VARCHAR(100),
    sysctls            JSONB        NOT NULL,
    interface_settings JSONB        NOT NULL,
    diff               JSONB        NOT NULL,
    comment            TEXT,
    created_at         TIMESTAMPTZ  NOT NULL DEFAULT now(),
    created_by         VARCHAR(200) NOT NULL,
    PRIMARY KEY (profile, version)
);

-- Which hosts get which profile: lowest priority number wins, the oldest rule on ties.
CREATE TABLE assignment_rule (
    id         BIGSERIAL    PRIMARY KEY,
    name       VARCHAR(100) NOT NULL UNIQUE,
    profile    VARCHAR(100) NOT NULL REFERENCES profile (name),
    priority   INTEGER      NOT NULL,
    site       VARCHAR(100),
    selector   TEXT         NOT NULL,  -- JSON: an object (AND) or a list (OR) of label conditions
    created_at TIMESTAMPTZ  NOT NULL DEFAULT now(),
    created_by VARCHAR(200) NOT NULL
);

-- What hosts report they run (parsed from sysctl -a and ip link), kept as history.
CREATE TABLE host_observation (
    id          BIGSERIAL    PRIMARY KEY,
    host        VARCHAR(253) NOT NULL REFERENCES host (name) ON DELETE CASCADE,
    observed_at TIMESTAMPTZ  NOT NULL,
    sysctls     JSONB        NOT NULL,
    interfaces  JSONB        NOT NULL,
    raw_sysctl  TEXT,
    raw_ip_link TEXT,
    received_at TIMESTAMPTZ  NOT NULL DEFAULT now(),
    received_by VARCHAR(200) NOT NULL
);
CREATE INDEX host_observation_latest_idx ON host_observation (host, observed_at DESC, id DESC);
