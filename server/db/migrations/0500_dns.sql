-- DNS zones and records (issue 7). One zone per name across the platform: PowerDNS serves one
-- namespace, so two accounts can never both own example.com's zone.
CREATE TABLE dns_zones (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  domain_id uuid REFERENCES domains (id),          -- NULL: a standalone zone for a name registered elsewhere
  name text NOT NULL CHECK (name = lower(name) AND name NOT LIKE '%.'),
  kind text NOT NULL DEFAULT 'native' CHECK (kind IN ('native')),
  serial bigint NOT NULL CHECK (serial BETWEEN 0 AND 4294967295),
  publish_state text NOT NULL DEFAULT 'pending' CHECK (publish_state IN ('pending', 'published', 'failed')),
  published_serial bigint,
  published_at timestamptz,
  last_error text,
  dnssec_state text NOT NULL DEFAULT 'unsigned' CHECK (dnssec_state IN ('unsigned', 'signing', 'signed', 'unsigning')),
  ds_records text[] NOT NULL DEFAULT '{}',
  -- RRsets (name TAB type) removed since the last publish: the publisher deletes exactly these,
  -- so rrsets someone added in PowerDNS directly are reported as drift, never silently removed.
  pending_deletes text[] NOT NULL DEFAULT '{}',
  drift jsonb,
  drift_checked_at timestamptz,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX dns_zones_name_key ON dns_zones (name);
CREATE UNIQUE INDEX dns_zones_domain_key ON dns_zones (domain_id) WHERE domain_id IS NOT NULL;
CREATE INDEX dns_zones_account_idx ON dns_zones (account_id, name);

CREATE TABLE dns_records (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  zone_id uuid NOT NULL REFERENCES dns_zones (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,                -- absolute, lower case, punycode, no trailing dot
  type text NOT NULL CHECK (type IN ('A', 'AAAA', 'CNAME', 'MX', 'TXT', 'SRV', 'CAA', 'NS', 'PTR', 'DS', 'TLSA', 'SSHFP', 'NAPTR', 'SOA')),
  ttl integer NOT NULL CHECK (ttl BETWEEN 0 AND 2147483647),
  content text NOT NULL,             -- canonical presentation text, names absolute with a dot
  priority integer,                  -- MX preference, SRV priority, NAPTR order
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- Content can be 64 KiB of TXT: the uniqueness goes through its hash to stay under btree limits.
CREATE UNIQUE INDEX dns_records_rr_key ON dns_records (zone_id, name, type, md5(content));
-- Searching across the zones of an account: by name (prefix/equality) and content (contains).
CREATE INDEX dns_records_account_name_idx ON dns_records (account_id, name text_pattern_ops);
CREATE INDEX dns_records_content_trgm_idx ON dns_records USING gin (content gin_trgm_ops);
