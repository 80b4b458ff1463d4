-- Whose a zone's name is (issue 26): a zone is created for a domain of the account's portfolio (or
-- a name under one, or under a zone of its own) — control 'portfolio' — or, for a name hosted
-- elsewhere, waits for a proof of control (a TXT record the API names) — control 'proof'. Until
-- `verified_at` is set the zone is kept but never published, reaches no certificate, and holds
-- the name for nobody: another account's zone or domain of that name may come first, so the one
-- name may be pending in several accounts, served by one live zone at most.
ALTER TABLE dns_zones
  ADD COLUMN control text NOT NULL DEFAULT 'portfolio' CHECK (control IN ('portfolio', 'proof')),
  ADD COLUMN proof_token text,
  ADD COLUMN verified_at timestamptz;

-- Zones made before: kept serving as they were (verified when created); those no domain of their
-- account covers are marked as standing on a proof, which the server's start check and the staff
-- list of overlaps look at with every other zone.
UPDATE dns_zones z SET verified_at = z.created_at,
  control = CASE WHEN EXISTS (
    SELECT 1 FROM domains d WHERE d.account_id = z.account_id AND d.status <> 'deleted' AND (z.name = d.name OR z.name LIKE '%.' || d.name)
  ) THEN 'portfolio' ELSE 'proof' END;

DROP INDEX dns_zones_name_key;
CREATE UNIQUE INDEX dns_zones_name_key ON dns_zones (name) WHERE verified_at IS NOT NULL;
DROP INDEX dns_zones_account_idx;
CREATE UNIQUE INDEX dns_zones_account_name_key ON dns_zones (account_id, name);
