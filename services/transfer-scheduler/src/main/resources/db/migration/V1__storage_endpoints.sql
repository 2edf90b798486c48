-- Storage endpoints (SEs): the only places Ferry reads from or writes to.
CREATE TABLE storage_endpoint (
    name                VARCHAR(100) PRIMARY KEY,
    site                VARCHAR(100) NOT NULL,
    -- protocol -> base URL, e.g. {"https": "https://se.example:443/atlas", "file": "file:///data/se1"}
    base_urls           JSONB        NOT NULL,
    needs_prepare       BOOLEAN      NOT NULL DEFAULT FALSE,
    third_party_copy    BOOLEAN      NOT NULL DEFAULT FALSE,
    inbound_max_active  INTEGER      NOT NULL DEFAULT 50 CHECK (inbound_max_active > 0),
    outbound_max_active INTEGER      NOT NULL DEFAULT 50 CHECK (outbound_max_active > 0),
    updated_at          TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_by          VARCHAR(200) NOT NULL
);
CREATE INDEX storage_endpoint_site_idx ON storage_endpoint (site);
