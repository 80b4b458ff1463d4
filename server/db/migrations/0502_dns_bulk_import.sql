-- Bulk zone import (issue 7, decision 201).
-- DNS names are ASCII (punycode), and record types and content are compared as octets: byte order
-- ("C") is the right collation, the same on every server, and lets sorts use abbreviated keys
-- instead of strcoll(), which made sorting and indexing a million records several times slower.
ALTER TABLE dns_records
  ALTER COLUMN name TYPE text COLLATE "C",
  ALTER COLUMN type TYPE text COLLATE "C",
  ALTER COLUMN content TYPE text COLLATE "C";

-- One foreign key instead of two: a record belongs to a zone AND to that zone's account, so a
-- record can never sit in another account than its zone, and each inserted row costs one
-- referential check instead of two (account → zone → accounts still holds through dns_zones).
CREATE UNIQUE INDEX dns_zones_id_account_key ON dns_zones (id, account_id);
ALTER TABLE dns_records
  DROP CONSTRAINT dns_records_zone_id_fkey,
  DROP CONSTRAINT dns_records_account_id_fkey,
  ADD CONSTRAINT dns_records_zone_account_fkey FOREIGN KEY (zone_id, account_id)
    REFERENCES dns_zones (id, account_id) ON DELETE CASCADE ON UPDATE CASCADE;
