-- Logical names bound to handles: LFN paths, GUIDs and Rucio-style scope:name.
CREATE TABLE logical_name (
    name       VARCHAR(1024) PRIMARY KEY,
    kind       VARCHAR(10)   NOT NULL CHECK (kind IN ('lfn', 'guid', 'did')),
    handle     VARCHAR(512)  NOT NULL REFERENCES handle (handle) ON DELETE CASCADE,
    scope      VARCHAR(100),
    created_at TIMESTAMPTZ   NOT NULL DEFAULT now()
);
CREATE INDEX logical_name_handle_idx ON logical_name (handle);
CREATE INDEX logical_name_scope_idx ON logical_name (scope);

-- Physical copies of a handle's object on registered SEs.
CREATE TABLE replica (
    handle      VARCHAR(512)  NOT NULL REFERENCES handle (handle) ON DELETE CASCADE,
    se          VARCHAR(100)  NOT NULL,
    path        VARCHAR(2048) NOT NULL,   -- the file's path below the SE's base URL
    size        BIGINT        CHECK (size >= 0),
    adler32     CHAR(8)       CHECK (adler32 ~ '^[0-9a-f]{8}$'),
    state       VARCHAR(12)   NOT NULL DEFAULT 'AVAILABLE' CHECK (state IN ('AVAILABLE', 'COPYING', 'UNAVAILABLE', 'LOST')),
    created_at  TIMESTAMPTZ   NOT NULL DEFAULT now(),
    PRIMARY KEY (handle, se)
);
CREATE INDEX replica_se_idx ON replica (se);
