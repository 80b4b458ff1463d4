-- DNS query statistics per zone (issue 7, decision 202), collected from PowerDNS by a job.
CREATE TABLE dns_zone_statistics (
  zone_id uuid NOT NULL REFERENCES dns_zones (id) ON DELETE CASCADE,
  bucket_start timestamptz NOT NULL,     -- start of a 5-minute bucket (UTC)
  queries bigint NOT NULL DEFAULT 0 CHECK (queries >= 0),
  PRIMARY KEY (zone_id, bucket_start)
);

-- What the collector saw last time on a PowerDNS server, to turn its running figures into
-- counts per interval: the total query counter, its uptime (a restart resets everything) and,
-- while its query ring has not wrapped, the ring's count per zone.
CREATE TABLE dns_statistics_cursor (
  server text PRIMARY KEY,
  total_queries bigint NOT NULL,
  uptime bigint NOT NULL,
  ring_wrapped boolean NOT NULL,
  ring_counts jsonb NOT NULL DEFAULT '{}',
  collected_at timestamptz NOT NULL
);
