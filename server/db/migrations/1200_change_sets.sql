-- Change sets (issue 33, decision 030): a change over the objects a list filter selects (zones or
-- domains), previewed per object, then rolled out in stages. Each stage, and the rollback of a
-- failing stage, is one bulk job (bulk_jobs, the one job loop of decision 203/102): its items keep
-- each object's state before the change (baseline), its attempts and its outcome.
ALTER TABLE bulk_jobs DROP CONSTRAINT bulk_jobs_action_check;
ALTER TABLE bulk_jobs ADD CONSTRAINT bulk_jobs_action_check
  CHECK (action IN ('renew', 'auto_renew_on', 'auto_renew_off', 'lock', 'unlock', 'set_contacts', 'set_nameservers', 'replace_record_content', 'change_set_stage', 'change_set_rollback'));

CREATE TABLE change_sets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  target text NOT NULL CHECK (target IN ('zones', 'domains')),
  -- The list filter (pql over the zones or domains list) that selects the objects, as saved.
  filter text NOT NULL DEFAULT '',
  -- What to change (common/change-sets.ts ChangeSpec).
  change jsonb NOT NULL,
  -- Cumulative shares of the objects reached by the end of each stage, in percent (1, 10, 100).
  stages integer[] NOT NULL DEFAULT '{1,10,100}',
  state text NOT NULL DEFAULT 'draft' CHECK (state IN ('draft', 'running', 'paused', 'completed', 'rolled_back', 'cancelled')),
  -- While running: what the current stage is doing.
  phase text CHECK (phase IN ('applying', 'checking', 'rolling_back')),
  current_stage integer NOT NULL DEFAULT 0,
  -- The bulk job of each stage started so far, and of a rollback.
  stage_jobs uuid[] NOT NULL DEFAULT '{}',
  rollback_job uuid,
  -- The health checks so far: [{stage, ok, checked, failures: [...], at}].
  checks jsonb NOT NULL DEFAULT '[]',
  check_deadline timestamptz,
  -- The preview's counts, when previewed: {objects, changed, unchanged, conflicts, added, removed}.
  preview jsonb,
  previewed_at timestamptz,
  created_by uuid,
  created_by_label text NOT NULL,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  version integer NOT NULL DEFAULT 1
);
CREATE INDEX change_sets_account_idx ON change_sets (account_id, created_at DESC);

-- One row per object the set selected at its preview: the diff shown, then its stage and outcome.
CREATE TABLE change_set_objects (
  -- The list engine's key (a page's rows are fetched back by it): unique across sets.
  id uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
  change_set_id uuid NOT NULL REFERENCES change_sets(id) ON DELETE CASCADE,
  position integer NOT NULL,
  account_id uuid NOT NULL,
  subject_id uuid NOT NULL,
  name text NOT NULL,
  -- What the preview found: a change, nothing to change, or a conflict (not sent).
  preview text NOT NULL CHECK (preview IN ('change', 'unchanged', 'conflict')),
  added integer NOT NULL DEFAULT 0,
  removed integer NOT NULL DEFAULT 0,
  -- The diff as lines ("+ www A 192.0.2.1", "- @ MX 10 old.example.") or the conflict's reason.
  diff text NOT NULL DEFAULT '',
  stage integer,
  outcome text CHECK (outcome IN ('applied', 'unchanged', 'failed', 'rolled_back', 'skipped', 'approval_requested')),
  error text,
  -- The object before its change (from its stage job's item): what a rollback puts back.
  baseline jsonb,
  finished_at timestamptz,
  PRIMARY KEY (change_set_id, position)
);
CREATE INDEX change_set_objects_subject_idx ON change_set_objects (change_set_id, subject_id);
