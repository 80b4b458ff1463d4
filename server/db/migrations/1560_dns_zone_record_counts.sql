-- Each zone's records counted by type and by TTL bucket beside its posture (issue 29: the DNS
-- report's record figures at 5M records), kept by the same job and valid for the same zone version:
-- integer arrays, position i the count of DNS_RECORD_TYPES[i] (common/lists/dns.ts, a list that is
-- only ever appended to) and of TTL_BUCKETS[i] (common/reports.ts), summed per position by the
-- report. Rollups made before this have no counts: their version is cleared, so the job computes
-- them again and the report computes those zones live meanwhile.
ALTER TABLE dns_zone_postures
  ADD COLUMN record_types integer[] NOT NULL DEFAULT '{}',
  ADD COLUMN record_ttls integer[] NOT NULL DEFAULT '{}';
UPDATE dns_zone_postures SET zone_version = -1;
