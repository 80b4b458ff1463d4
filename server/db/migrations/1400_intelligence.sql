-- Intelligence (issue 32, decision 033): an item is the analysis of one brand, kept in an account —
-- a client's own (the client's account), or a prospect's (kind 'prospect', kept in the account of
-- the registrar's people who work it: a prospect has no account of ours). Templates are saved sets
-- of modules, TLD groups and patterns. Each run is kept with its progress and its totals, and the
-- gap matrix's cells of each run (one name each: a pattern in a TLD, its state and evidence), so
-- runs compare over time.
CREATE TABLE intelligence_templates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  modules text[] NOT NULL DEFAULT '{}',
  tld_groups text[] NOT NULL DEFAULT '{}',
  keywords text[] NOT NULL DEFAULT '{}',
  lookalike_min_score integer NOT NULL DEFAULT 85 CHECK (lookalike_min_score BETWEEN 0 AND 100),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX intelligence_templates_account_name ON intelligence_templates (account_id, name);

CREATE TABLE intelligence_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  kind text NOT NULL CHECK (kind IN ('client', 'prospect')),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  brand text NOT NULL CHECK (length(brand) BETWEEN 1 AND 63),
  strings text[] NOT NULL DEFAULT '{}',
  keywords text[] NOT NULL DEFAULT '{}',
  known_domains text[] NOT NULL DEFAULT '{}',
  priority_cctlds text[] NOT NULL DEFAULT '{}',
  tld_groups text[] NOT NULL DEFAULT '{legacy,cctld,new-gtld,idn}',
  modules text[] NOT NULL DEFAULT '{}',
  lookalike_min_score integer NOT NULL DEFAULT 85 CHECK (lookalike_min_score BETWEEN 0 AND 100),
  template_id uuid REFERENCES intelligence_templates (id) ON DELETE SET NULL,
  schedule text NOT NULL DEFAULT 'none' CHECK (schedule IN ('none', 'daily', 'weekly')),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX intelligence_items_account ON intelligence_items (account_id, name, id);

CREATE TABLE intelligence_runs (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  item_id uuid NOT NULL REFERENCES intelligence_items (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
  trigger text NOT NULL DEFAULT 'manual' CHECK (trigger IN ('manual', 'schedule', 'seed')),
  done integer NOT NULL DEFAULT 0,
  total integer NOT NULL DEFAULT 0,
  patterns jsonb NOT NULL DEFAULT '[]',
  summary jsonb,
  error text,
  created_by text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz
);
CREATE INDEX intelligence_runs_item ON intelligence_runs (item_id, created_at DESC);

CREATE TABLE intelligence_cells (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  run_id uuid NOT NULL REFERENCES intelligence_runs (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  pattern text NOT NULL,
  name text NOT NULL,
  unicode_name text NOT NULL,
  tld text NOT NULL,
  tld_group text NOT NULL CHECK (tld_group IN ('legacy', 'cctld', 'new-gtld', 'idn')),
  state text NOT NULL CHECK (state IN ('ours', 'ours-elsewhere', 'third-party-live', 'third-party-parked', 'third-party-mail', 'third-party', 'available', 'premium', 'restricted', 'blocked', 'not-offered', 'unknown')),
  evidence jsonb NOT NULL DEFAULT '{}',
  price_minor bigint,
  currency text,
  checked_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX intelligence_cells_run_name ON intelligence_cells (run_id, name);
