-- FTS3's proxy delegation (GET /delegation/{id}/request, PUT /delegation/{id}/credential): per delegation id and DN,
-- the pending certificate request with the key pair Ferry generated for it, and the delegated proxy once the owner
-- signed it. Private keys and proxies are AES-GCM ciphertexts (DelegationCipher), never plain text.
CREATE TABLE delegated_credential (
    delegation_id     VARCHAR(16)  NOT NULL,
    user_dn           VARCHAR(500) NOT NULL,
    request_pem       TEXT,                       -- the pending CSR (public)
    request_key       BYTEA,                      -- its private key, encrypted
    requested_at      TIMESTAMPTZ,
    proxy             BYTEA,                      -- proxy, key and chain as one PEM (FTS3's full proxy), encrypted
    voms_attrs        TEXT,                       -- the owner's FQANs, one a line
    termination_time  TIMESTAMPTZ,                -- the earliest notAfter of the proxy's chain
    delegated_at      TIMESTAMPTZ,
    PRIMARY KEY (delegation_id, user_dn)
);
-- Expired proxies are deleted (DelegatedCredentials.deleteExpired).
CREATE INDEX delegated_credential_expiry_idx ON delegated_credential (termination_time);

-- FTS3's cred_id: the delegation id of a job submitted with a certificate, whose proxy the engine presents to storage.
ALTER TABLE job ADD COLUMN cred_id VARCHAR(16);
