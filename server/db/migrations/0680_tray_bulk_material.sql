-- Bulk tray, bulk jobs and material change requests (issue 6).

-- The bulk tray of a user in one account: references only, so it survives reloads and sign-ins.
CREATE TABLE tray_items (
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  entity_type text NOT NULL CHECK (entity_type IN ('domain', 'record')),
  entity_id uuid NOT NULL,
  added_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, account_id, entity_type, entity_id)
);
CREATE INDEX tray_items_list_idx ON tray_items (user_id, account_id, entity_type, added_at, entity_id);

-- One bulk action over many domains: a job with a result per item.
CREATE TABLE bulk_jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  actor_label text NOT NULL,
  action text NOT NULL CHECK (action IN ('renew', 'auto_renew_on', 'auto_renew_off', 'lock', 'unlock', 'set_contacts', 'set_nameservers')),
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'completed', 'failed')),
  total integer NOT NULL CHECK (total BETWEEN 1 AND 10000),
  done integer NOT NULL DEFAULT 0,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX bulk_jobs_account_idx ON bulk_jobs (account_id, created_at DESC, id);

CREATE TABLE bulk_job_items (
  job_id uuid NOT NULL REFERENCES bulk_jobs (id) ON DELETE CASCADE,
  position integer NOT NULL,
  domain_id uuid NOT NULL,
  name text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done')),
  ok boolean,
  outcome text,
  error text,
  finished_at timestamptz,
  PRIMARY KEY (job_id, position)
);

-- Material domains: registrant, contact and nameserver changes need an approver's yes.
ALTER TABLE domains ADD COLUMN is_material boolean NOT NULL DEFAULT false;

CREATE TABLE material_approvers (
  account_id uuid NOT NULL REFERENCES accounts (id),
  email text NOT NULL CHECK (email = lower(email) AND position('@' IN email) > 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, email)
);

CREATE TABLE material_change_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  domain_id uuid NOT NULL REFERENCES domains (id),
  domain_name text NOT NULL,
  change jsonb NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'approved', 'rejected', 'expired', 'applied')),
  requested_by uuid,
  requested_by_label text NOT NULL,
  approvers text[] NOT NULL DEFAULT '{}',
  notified_at timestamptz,
  expires_at timestamptz NOT NULL,
  decided_at timestamptz,
  decided_by text,
  comment text,
  applied_at timestamptz,
  error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX material_change_requests_account_idx ON material_change_requests (account_id, created_at, id);
CREATE INDEX material_change_requests_pending_idx ON material_change_requests (expires_at) WHERE state = 'pending';
CREATE INDEX material_change_requests_unnotified_idx ON material_change_requests (created_at) WHERE notified_at IS NULL;

-- One single-use link per approver; only the SHA-256 of the token is kept.
CREATE TABLE material_approval_tokens (
  token_hash text PRIMARY KEY,
  request_id uuid NOT NULL REFERENCES material_change_requests (id) ON DELETE CASCADE,
  email text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX material_approval_tokens_request_idx ON material_approval_tokens (request_id);
