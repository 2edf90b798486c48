-- Per-link configuration (source SE -> destination SE). Streams left NULL are taken from tcp-profiles' advice.
CREATE TABLE link_config (
    source_se       VARCHAR(100) NOT NULL,
    dest_se         VARCHAR(100) NOT NULL,
    min_active      INTEGER      NOT NULL DEFAULT 2  CHECK (min_active >= 1),
    max_active      INTEGER      NOT NULL DEFAULT 60 CHECK (max_active >= min_active),
    nostreams       INTEGER      CHECK (nostreams BETWEEN 1 AND 16),
    optimizer_mode  VARCHAR(10)  NOT NULL DEFAULT 'adaptive' CHECK (optimizer_mode IN ('adaptive', 'fixed')),
    updated_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_by      VARCHAR(200) NOT NULL,
    PRIMARY KEY (source_se, dest_se)
);
