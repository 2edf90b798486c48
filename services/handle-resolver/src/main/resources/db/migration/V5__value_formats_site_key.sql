-- HS_SITE and HS_PUBKEY values in CNRI's JSON formats "site" and "key" (its GsonUtility), stored as given.
ALTER TABLE handle_value DROP CONSTRAINT handle_value_data_format_check;
ALTER TABLE handle_value ADD CONSTRAINT handle_value_data_format_check
    CHECK (data_format IN ('string', 'base64', 'hex', 'admin', 'vlist', 'site', 'key'));
