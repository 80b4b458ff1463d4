-- Bulk record edits from the records tray (issue 7, decision 203): "replace this address in every
-- zone that has it" as a job with progress. Same shape as the domain bulk jobs of migration 0680
-- (job: state, total, done; item: position, name, state, ok, outcome, error) so the API answer and
-- the progress screen are the same. Its own tables only because migrations run in file order and
-- 0504 runs before 0680 creates bulk_jobs: see decision 203 for folding them together later.
-- An item is one ZONE: each zone gets one change set (one serial bump, one publish).
CREATE TABLE dns_bulk_jobs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  actor_label text NOT NULL,
  action text NOT NULL CHECK (action IN ('replace_record_content')),
  params jsonb NOT NULL DEFAULT '{}'::jsonb,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'completed', 'failed')),
  total integer NOT NULL CHECK (total BETWEEN 1 AND 10000),
  done integer NOT NULL DEFAULT 0,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX dns_bulk_jobs_account_idx ON dns_bulk_jobs (account_id, created_at DESC, id);

CREATE TABLE dns_bulk_job_items (
  job_id uuid NOT NULL REFERENCES dns_bulk_jobs (id) ON DELETE CASCADE,
  position integer NOT NULL,
  zone_id uuid NOT NULL,             -- no FK: a zone deleted meanwhile is a failed item, not a lost result
  name text NOT NULL,                -- the zone's name when the job was created
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done')),
  ok boolean,
  outcome text,
  records integer,                   -- records changed in this zone
  error text,
  finished_at timestamptz,
  PRIMARY KEY (job_id, position)
);
