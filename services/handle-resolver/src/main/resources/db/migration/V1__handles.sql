-- Prefixes homed on this service, handles under them and their typed values (Handle.net's data model).
CREATE TABLE prefix (
    name       VARCHAR(100) PRIMARY KEY,
    homed_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    homed_by   VARCHAR(200) NOT NULL
);

CREATE TABLE handle (
    handle       VARCHAR(512) PRIMARY KEY,          -- prefix/suffix, stored as given (case-insensitive lookups use lower())
    prefix       VARCHAR(100) NOT NULL,
    created_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    tombstoned_at TIMESTAMPTZ,
    tombstone_reason TEXT
);
CREATE UNIQUE INDEX handle_lower_idx ON handle (lower(handle));
CREATE INDEX handle_prefix_idx ON handle (prefix, handle);

CREATE TABLE handle_value (
    handle      VARCHAR(512) NOT NULL REFERENCES handle (handle) ON DELETE CASCADE,
    idx         INTEGER      NOT NULL CHECK (idx > 0),
    type        VARCHAR(255) NOT NULL,
    data_format VARCHAR(10)  NOT NULL CHECK (data_format IN ('string', 'base64', 'hex', 'admin', 'vlist')),
    data_value  JSONB        NOT NULL,
    ttl_type    SMALLINT     NOT NULL DEFAULT 0,   -- 0 relative seconds, 1 absolute expiry (epoch seconds)
    ttl         BIGINT       NOT NULL DEFAULT 86400,
    timestamp   TIMESTAMPTZ  NOT NULL DEFAULT now(),
    admin_read  BOOLEAN      NOT NULL DEFAULT TRUE,
    admin_write BOOLEAN      NOT NULL DEFAULT TRUE,
    pub_read    BOOLEAN      NOT NULL DEFAULT TRUE,
    pub_write   BOOLEAN      NOT NULL DEFAULT FALSE,
    PRIMARY KEY (handle, idx)
);
