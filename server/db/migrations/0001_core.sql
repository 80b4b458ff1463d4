-- The spine: accounts, users, the audit trail, TLDs and the domain portfolio.
-- Ids are UUIDs, times are timestamptz (UTC), money is integer minor units plus an ISO currency.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended')),
  currency char(3) NOT NULL DEFAULT 'EUR' CHECK (currency ~ '^[A-Z]{3}$'),
  language text NOT NULL DEFAULT 'en',
  is_registrar boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX accounts_name_key ON accounts (lower(name));
CREATE INDEX accounts_created_at_idx ON accounts (created_at, id);

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  email text NOT NULL CHECK (email = lower(email) AND position('@' IN email) > 1),
  name text NOT NULL DEFAULT '',
  password_hash text,
  roles text[] NOT NULL DEFAULT '{}',
  abilities text[] NOT NULL DEFAULT '{}',
  language text NOT NULL DEFAULT 'en',
  dark_theme boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'disabled')),
  last_sign_in_at timestamptz,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (email);
CREATE INDEX users_account_idx ON users (account_id, created_at, id);

-- Append-only: entries are written in the transaction of the change they describe.
CREATE TABLE audit_entries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  occurred_at timestamptz NOT NULL DEFAULT now(),
  request_id text,
  actor_user_id uuid,
  actor_label text NOT NULL,
  account_id uuid,
  area text NOT NULL,
  entity_type text NOT NULL,
  entity_id text NOT NULL,
  action text NOT NULL,
  changes jsonb NOT NULL DEFAULT '{}'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_entries_entity_idx ON audit_entries (entity_type, entity_id, created_at DESC);
CREATE INDEX audit_entries_account_area_idx ON audit_entries (account_id, area, created_at DESC);
CREATE INDEX audit_entries_created_idx ON audit_entries (created_at DESC, id);

CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit entries are append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_entries_no_update BEFORE UPDATE OR DELETE ON audit_entries
  FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only();
CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
  FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only();

CREATE TABLE tlds (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,               -- ASCII (punycode) form without the dot: com, xn--p1ai
  unicode_name text NOT NULL,       -- display form: com, рф
  kind text NOT NULL DEFAULT 'generic' CHECK (kind IN ('generic', 'country-code', 'sponsored', 'new-generic', 'infrastructure')),
  registry_operator text NOT NULL DEFAULT '',
  is_offered boolean NOT NULL DEFAULT false,
  periods integer[] NOT NULL DEFAULT '{1,2,3,5,10}',
  list_price_minor bigint,
  currency char(3) NOT NULL DEFAULT 'EUR',
  dnssec boolean NOT NULL DEFAULT true,
  idn boolean NOT NULL DEFAULT false,
  registry_lock boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX tlds_name_key ON tlds (name);

CREATE TABLE domains (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,               -- ASCII (punycode) form, lower case
  unicode_name text NOT NULL,
  tld text NOT NULL,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('pending', 'active', 'expired', 'redemption', 'pending-delete', 'transferring', 'deleted')),
  expires_at timestamptz,
  auto_renew boolean NOT NULL DEFAULT true,
  registry_lock boolean NOT NULL DEFAULT false,
  dnssec boolean NOT NULL DEFAULT false,
  tags text[] NOT NULL DEFAULT '{}',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX domains_name_key ON domains (name) WHERE status <> 'deleted';
CREATE INDEX domains_account_created_idx ON domains (account_id, created_at, id);
CREATE INDEX domains_account_expires_idx ON domains (account_id, expires_at, id);
CREATE INDEX domains_name_trgm_idx ON domains USING gin (name gin_trgm_ops);
