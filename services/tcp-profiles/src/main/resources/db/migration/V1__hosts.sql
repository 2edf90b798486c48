-- Host inventory: what each data-moving host is, where it sits and how it is labelled for profile selection.
CREATE TABLE host (
    name            VARCHAR(253) PRIMARY KEY,
    site            VARCHAR(100) NOT NULL,
    storage_element VARCHAR(100),
    nic_speed_mbps  INTEGER      NOT NULL CHECK (nic_speed_mbps > 0),
    mtu             INTEGER      NOT NULL DEFAULT 1500 CHECK (mtu BETWEEN 576 AND 65535),
    kernel          VARCHAR(200),
    labels          JSONB        NOT NULL DEFAULT '{}'::jsonb,
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_by      VARCHAR(200) NOT NULL,
    version         BIGINT       NOT NULL DEFAULT 0
);
CREATE INDEX host_site_idx ON host (site);
CREATE INDEX host_labels_idx ON host USING GIN (labels);
