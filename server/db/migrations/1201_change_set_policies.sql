-- Policies (issue 33, decision 030): the state the objects a filter selects should be in, written as
-- a change set's change. An object drifts when that change would change it; a job evaluates each
-- policy on a schedule and on demand, and keeps the drifting objects with since when they drift.
CREATE TABLE change_set_policies (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  target text NOT NULL CHECK (target IN ('zones', 'domains')),
  filter text NOT NULL DEFAULT '',
  change jsonb NOT NULL,
  objects integer,
  drifting integer,
  evaluated_at timestamptz,
  last_error text,
  created_by uuid,
  created_by_label text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX change_set_policies_account_idx ON change_set_policies (account_id, created_at DESC);

CREATE TABLE change_set_policy_drift (
  -- The list engine's key.
  id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  policy_id uuid NOT NULL REFERENCES change_set_policies(id) ON DELETE CASCADE,
  account_id uuid NOT NULL,
  subject_id uuid NOT NULL,
  name text NOT NULL,
  state text NOT NULL CHECK (state IN ('drifting', 'conflict')),
  -- What the policy's change would do to it, or why it cannot.
  diff text NOT NULL DEFAULT '',
  since timestamptz NOT NULL,
  checked_at timestamptz NOT NULL,
  PRIMARY KEY (policy_id, subject_id)
);
