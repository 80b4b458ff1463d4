-- Change sets waiting for approval (issue 33, decision 030): a set whose change is material (the
-- nameservers of a material domain), or any set of an account that asks for it, waits for N of its
-- designated approvers (material_approvers) as ONE request naming every object. Each approver's
-- decision is one row; the author never approves their own set.
ALTER TABLE change_sets DROP CONSTRAINT change_sets_state_check;
ALTER TABLE change_sets ADD CONSTRAINT change_sets_state_check
  CHECK (state IN ('draft', 'awaiting_approval', 'rejected', 'running', 'paused', 'completed', 'rolled_back', 'cancelled'));
-- Fixed when the approval is asked: how many approvals, from whom, and why it is needed.
ALTER TABLE change_sets ADD COLUMN approvals_required integer;
ALTER TABLE change_sets ADD COLUMN approvers text[] NOT NULL DEFAULT '{}';
ALTER TABLE change_sets ADD COLUMN approval_reason text CHECK (approval_reason IN ('material', 'account'));
ALTER TABLE change_sets ADD COLUMN approval_requested_at timestamptz;
ALTER TABLE change_sets ADD COLUMN approved_at timestamptz;

CREATE TABLE change_set_approvals (
  change_set_id uuid NOT NULL REFERENCES change_sets(id) ON DELETE CASCADE,
  account_id uuid NOT NULL,
  email text NOT NULL,
  user_id uuid,
  decision text NOT NULL CHECK (decision IN ('approve', 'reject')),
  comment text NOT NULL DEFAULT '',
  decided_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (change_set_id, email)
);

-- Per account: how many of the designated approvers must approve (N of M), and whether every
-- change set waits for them (not only the material ones). No row: 1, material sets only.
CREATE TABLE change_set_approval_rules (
  account_id uuid PRIMARY KEY REFERENCES accounts(id),
  required integer NOT NULL DEFAULT 1 CHECK (required BETWEEN 1 AND 50),
  every_set boolean NOT NULL DEFAULT false,
  updated_at timestamptz NOT NULL DEFAULT now()
);
