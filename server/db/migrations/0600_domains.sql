-- Domain portfolio (issue 6): what the registry told us about each domain, the indexes behind the
-- portfolio list, import jobs with a result per line, reconciliation differences and expiry notices.

ALTER TABLE domains
  ADD COLUMN registry text,
  ADD COLUMN registry_roid text,
  ADD COLUMN registry_statuses text[] NOT NULL DEFAULT '{}',
  ADD COLUMN nameservers text[] NOT NULL DEFAULT '{}',
  ADD COLUMN ds_data jsonb NOT NULL DEFAULT '[]'::jsonb,
  ADD COLUMN registered_at timestamptz,
  ADD COLUMN deletion_requested_at timestamptz,
  ADD COLUMN reconciled_at timestamptz;

-- The list pages by (account, sort column, id); name is the default sort.
CREATE INDEX domains_account_name_idx ON domains (account_id, name, id);
CREATE INDEX domains_account_tld_name_idx ON domains (account_id, tld, name, id);
CREATE INDEX domains_account_status_expires_idx ON domains (account_id, status, expires_at, id);
CREATE INDEX domains_account_updated_idx ON domains (account_id, updated_at, id);
CREATE INDEX domains_tags_idx ON domains USING gin (tags);
-- The daily auto-renew and expiry-notice jobs look only at live domains by expiry.
CREATE INDEX domains_live_expires_idx ON domains (expires_at, id) WHERE status IN ('active', 'expired');

-- "Bring existing domains under management": one row per job, one per pasted line.
CREATE TABLE domain_imports (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'completed', 'failed')),
  total integer NOT NULL CHECK (total BETWEEN 0 AND 10000),
  done integer NOT NULL DEFAULT 0,
  created_by uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX domain_imports_account_idx ON domain_imports (account_id, created_at DESC);

CREATE TABLE domain_import_lines (
  import_id uuid NOT NULL REFERENCES domain_imports (id) ON DELETE CASCADE,
  line integer NOT NULL,
  name text NOT NULL,
  ok boolean,
  error text,
  domain_id uuid,
  PRIMARY KEY (import_id, line)
);

-- What the registry says and we do not: open until a later check finds them equal again.
CREATE TABLE domain_differences (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  domain_id uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  field text NOT NULL CHECK (field IN ('exists', 'expires_at', 'statuses', 'nameservers', 'ds')),
  ours text NOT NULL,
  registry text NOT NULL,
  detected_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz
);
CREATE UNIQUE INDEX domain_differences_open_key ON domain_differences (domain_id, field) WHERE resolved_at IS NULL;
CREATE INDEX domain_differences_account_idx ON domain_differences (account_id, detected_at DESC, id);

-- One notice per domain, threshold and expiry date: a renewed domain gets its notices again.
CREATE TABLE domain_expiry_notices (
  domain_id uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  threshold_days integer NOT NULL,
  expires_at timestamptz NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (domain_id, threshold_days, expires_at)
);
