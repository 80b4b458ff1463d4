-- A trigram index on record content made a million-record import take minutes (GIN inserts);
-- content search scans the account's records instead. Export pages through the unique index.
DROP INDEX IF EXISTS dns_records_content_trgm_idx;
