-- Directory (issue 5): contacts with their registry handles, the links of domains to contacts,
-- user invitations, and the TLD catalogue fields.

CREATE TABLE contacts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  organisation text NOT NULL DEFAULT '',
  email text NOT NULL CHECK (email = lower(email) AND position('@' IN email) > 1),
  -- Phone numbers in E.164 (+ and up to 15 digits); validated by the service, guarded here.
  phone text CHECK (phone ~ '^\+[1-9][0-9]{5,14}$'),
  mobile text CHECK (mobile ~ '^\+[1-9][0-9]{5,14}$'),
  fax text CHECK (fax ~ '^\+[1-9][0-9]{5,14}$'),
  street1 text NOT NULL DEFAULT '',
  street2 text NOT NULL DEFAULT '',
  street3 text NOT NULL DEFAULT '',
  city text NOT NULL DEFAULT '',
  state text NOT NULL DEFAULT '',
  postcode text NOT NULL DEFAULT '',
  country_code char(2) NOT NULL CHECK (country_code ~ '^[A-Z]{2}$'),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX contacts_account_created_idx ON contacts (account_id, created_at, id);
CREATE INDEX contacts_name_trgm_idx ON contacts USING gin (name gin_trgm_ops);

-- The contact's object id at each registry, and whether our copy there is current.
CREATE TABLE registry_handles (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  contact_id uuid NOT NULL REFERENCES contacts (id) ON DELETE CASCADE,
  registry text NOT NULL CHECK (length(registry) BETWEEN 1 AND 100),
  handle text NOT NULL CHECK (length(handle) BETWEEN 1 AND 100),
  sync_state text NOT NULL DEFAULT 'pending' CHECK (sync_state IN ('pending', 'synced', 'failed')),
  last_synced_at timestamptz,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX registry_handles_contact_registry_key ON registry_handles (contact_id, registry);
CREATE UNIQUE INDEX registry_handles_registry_handle_key ON registry_handles (registry, handle);

-- Which contact holds which role on a domain; a contact referenced here is "in use".
CREATE TABLE domain_contacts (
  domain_id uuid NOT NULL REFERENCES domains (id) ON DELETE CASCADE,
  contact_id uuid NOT NULL REFERENCES contacts (id),
  role text NOT NULL CHECK (role IN ('registrant', 'admin', 'tech', 'billing')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (domain_id, role)
);
CREATE INDEX domain_contacts_contact_idx ON domain_contacts (contact_id);

-- Invitations by email: the link carries a token of which only a SHA-256 is stored.
CREATE TABLE user_invites (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id),
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX user_invites_token_key ON user_invites (token_hash);
CREATE INDEX user_invites_user_idx ON user_invites (user_id);

-- The TLD catalogue: grace periods in days, and the contact roles the registry requires.
ALTER TABLE tlds
  ADD COLUMN add_grace_days integer NOT NULL DEFAULT 5 CHECK (add_grace_days BETWEEN 0 AND 365),
  ADD COLUMN renew_grace_days integer NOT NULL DEFAULT 5 CHECK (renew_grace_days BETWEEN 0 AND 365),
  ADD COLUMN auto_renew_grace_days integer NOT NULL DEFAULT 45 CHECK (auto_renew_grace_days BETWEEN 0 AND 365),
  ADD COLUMN transfer_grace_days integer NOT NULL DEFAULT 5 CHECK (transfer_grace_days BETWEEN 0 AND 365),
  ADD COLUMN redemption_days integer NOT NULL DEFAULT 30 CHECK (redemption_days BETWEEN 0 AND 365),
  ADD COLUMN required_contacts text[] NOT NULL DEFAULT '{registrant}'
    CHECK (required_contacts <@ ARRAY['registrant', 'admin', 'tech', 'billing']::text[]);
CREATE INDEX tlds_unicode_name_idx ON tlds (unicode_name);
