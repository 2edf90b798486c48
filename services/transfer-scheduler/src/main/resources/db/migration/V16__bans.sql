-- FTS3's bans (/ban/se, /ban/dn). A banned SE's files are not claimed; CANCEL cancels them, WAIT holds them until the
-- unban or until wait_timeout seconds after the ban (then they are cancelled); WAIT_AS is WAIT that still accepts
-- submissions. storage is what the admin named (an SE name or FTS3's scheme://host[:port]), se_names the SEs it stood
-- for when banned; vo '*' is every VO.
CREATE TABLE banned_se (
    storage       VARCHAR(300) NOT NULL,
    vo            VARCHAR(100) NOT NULL,
    se_names      TEXT[]       NOT NULL,
    status        VARCHAR(8)   NOT NULL CHECK (status IN ('CANCEL', 'WAIT', 'WAIT_AS')),
    wait_timeout  INTEGER      NOT NULL DEFAULT 0 CHECK (wait_timeout >= 0),
    message       TEXT,
    admin_dn      VARCHAR(200) NOT NULL,
    addition_time TIMESTAMPTZ  NOT NULL DEFAULT now(),
    PRIMARY KEY (storage, vo)
);

-- A banned user's jobs were cancelled when banned; its submissions are refused.
CREATE TABLE banned_dn (
    user_dn       VARCHAR(200) PRIMARY KEY,
    message       TEXT,
    admin_dn      VARCHAR(200) NOT NULL,
    addition_time TIMESTAMPTZ  NOT NULL DEFAULT now()
);
