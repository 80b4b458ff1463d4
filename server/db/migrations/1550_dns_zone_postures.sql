-- Each zone's mail and certificate posture as the DNS report counts it (issue 29, "rollups kept by
-- jobs"): computed by the DNS area's job from the zone's records and valid while the zone's version
-- is the one it was computed at. The report and its zone list read it where it is current and
-- compute the rest live, so the figures are exact whatever the job's progress.
CREATE TABLE dns_zone_postures (
  zone_id uuid PRIMARY KEY REFERENCES dns_zones (id) ON DELETE CASCADE,
  zone_version integer NOT NULL,
  spf text NOT NULL,
  dmarc text NOT NULL,
  caa boolean NOT NULL,
  caa_issuers text NOT NULL,
  mx boolean NOT NULL,
  records integer NOT NULL,
  computed_at timestamptz NOT NULL DEFAULT now()
);
