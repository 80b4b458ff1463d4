-- Each zone's records counted by type and by TTL bucket beside its posture (issue 29: the DNS
-- report's record figures at 5M records), kept by the same job and valid for the same zone version.
-- Rollups made before this have no counts: their version is cleared, so the job computes them again
-- and the report computes those zones live meanwhile.
ALTER TABLE dns_zone_postures
  ADD COLUMN record_types jsonb NOT NULL DEFAULT '{}',
  ADD COLUMN record_ttls jsonb NOT NULL DEFAULT '{}';
UPDATE dns_zone_postures SET zone_version = -1;
