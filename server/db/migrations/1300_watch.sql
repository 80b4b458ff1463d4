-- Watch (issue 31, decision 032): an account's watches over its brands (decision 029's brands and
-- lookalike engine), the detections a run finds with their rating and evidence, and the cases
-- that carry a detection (or its cluster) from triage to the end, each step dated and attributed.

-- Presets a new watch starts from: staff's (account_id NULL, for every account) and an account's own.
CREATE TABLE watch_templates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid REFERENCES accounts (id),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  sources text[] NOT NULL DEFAULT '{lookalikes}',
  interval_hours integer NOT NULL DEFAULT 24 CHECK (interval_hours BETWEEN 1 AND 720),
  min_similarity integer NOT NULL DEFAULT 70 CHECK (min_similarity BETWEEN 0 AND 100),
  threshold_high integer NOT NULL DEFAULT 50 CHECK (threshold_high BETWEEN 1 AND 100),
  threshold_critical integer NOT NULL DEFAULT 80 CHECK (threshold_critical BETWEEN 1 AND 100),
  notice_text text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX watch_templates_name ON watch_templates (coalesce(account_id, '00000000-0000-0000-0000-000000000000'::uuid), name);

CREATE TABLE watches (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  brand_id uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  -- The brand's label as last read through the brand area (a watch's list shows it without naming its table).
  brand_label text NOT NULL,
  template_id uuid REFERENCES watch_templates (id) ON DELETE SET NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  sources text[] NOT NULL DEFAULT '{lookalikes}',
  interval_hours integer NOT NULL DEFAULT 24 CHECK (interval_hours BETWEEN 1 AND 720),
  min_similarity integer NOT NULL DEFAULT 70 CHECK (min_similarity BETWEEN 0 AND 100),
  threshold_high integer NOT NULL DEFAULT 50 CHECK (threshold_high BETWEEN 1 AND 100),
  threshold_critical integer NOT NULL DEFAULT 80 CHECK (threshold_critical BETWEEN 1 AND 100),
  notice_text text,
  last_run_at timestamptz,
  last_run jsonb,
  next_run_at timestamptz NOT NULL DEFAULT now(),
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX watches_account_name ON watches (account_id, name);
CREATE INDEX watches_due ON watches (next_run_at);

-- Who is told of a watch's new detections and its cases' reminders: a user of the account or an outside address.
CREATE TABLE watch_contacts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  watch_id uuid NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  email text NOT NULL CHECK (length(email) BETWEEN 3 AND 254),
  name text,
  language text NOT NULL DEFAULT 'en',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX watch_contacts_email ON watch_contacts (watch_id, lower(email));

CREATE TABLE watch_detections (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  watch_id uuid NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  unicode_name text NOT NULL,
  tld text NOT NULL,
  fuzzers text[] NOT NULL DEFAULT '{}',
  similarity integer NOT NULL CHECK (similarity BETWEEN 0 AND 100),
  points integer NOT NULL CHECK (points BETWEEN 0 AND 100),
  risk text NOT NULL CHECK (risk IN ('low', 'high', 'critical')),
  reasons jsonb NOT NULL DEFAULT '[]',
  mail_ready boolean NOT NULL DEFAULT false,
  web_ready boolean NOT NULL DEFAULT false,
  registrar text,
  abuse_email text,
  cluster text NOT NULL,
  cluster_size integer NOT NULL DEFAULT 1,
  -- A hash of what the last capture said: a re-check that finds the same adds no evidence.
  fingerprint text NOT NULL,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  changed_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX watch_detections_name ON watch_detections (watch_id, name);
CREATE INDEX watch_detections_account ON watch_detections (account_id, points DESC, id);

-- Evidence as captured, never changed: an update is refused by the database itself.
CREATE TABLE watch_evidence (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  detection_id uuid NOT NULL REFERENCES watch_detections (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  kind text NOT NULL CHECK (kind IN ('rdap', 'dns', 'certificate', 'web')),
  captured_at timestamptz NOT NULL DEFAULT now(),
  data jsonb NOT NULL,
  sha256 text NOT NULL
);
CREATE INDEX watch_evidence_detection ON watch_evidence (detection_id, captured_at);
CREATE FUNCTION watch_evidence_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'watch evidence is immutable';
END $$;
CREATE TRIGGER watch_evidence_no_update BEFORE UPDATE ON watch_evidence FOR EACH ROW EXECUTE FUNCTION watch_evidence_immutable();

CREATE TABLE watch_cases (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  watch_id uuid NOT NULL REFERENCES watches (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  detection_id uuid NOT NULL REFERENCES watch_detections (id) ON DELETE CASCADE,
  -- The names it covers: the detection's, or every name of its cluster.
  names text[] NOT NULL,
  tld text NOT NULL,
  risk text NOT NULL CHECK (risk IN ('low', 'high', 'critical')),
  state text NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'triaged', 'action', 'resolved')),
  triage text CHECK (triage IN ('false-positive', 'low', 'high')),
  action text CHECK (action IN ('monitoring', 'notice-sent', 'takedown-requested', 'udrp', 'urs', 'acquisition', 'block')),
  resolution text CHECK (resolution IN ('taken-down', 'transferred', 'suspended', 'expired', 'dismissed')),
  notice_to text,
  notice_language text,
  notice_sent_at timestamptz,
  udrp_commenced_at timestamptz,
  udrp_panel_at timestamptz,
  udrp_decided_at timestamptz,
  urs_noticed_at timestamptz,
  opened_at timestamptz NOT NULL DEFAULT now(),
  resolved_at timestamptz,
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX watch_cases_open_detection ON watch_cases (detection_id) WHERE state <> 'resolved';
CREATE INDEX watch_cases_account ON watch_cases (account_id, state, opened_at DESC);

-- Every step of a case, dated and attributed (the audit trail has it too).
CREATE TABLE watch_case_steps (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  case_id uuid NOT NULL REFERENCES watch_cases (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  state text NOT NULL,
  detail text,
  note text,
  actor_label text NOT NULL,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX watch_case_steps_case ON watch_case_steps (case_id, at);

-- What was mailed for a case, once per step: a re-run finds its row and sends nothing.
CREATE TABLE watch_sends (
  case_id uuid NOT NULL REFERENCES watch_cases (id) ON DELETE CASCADE,
  step text NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts (id),
  recipient text NOT NULL,
  subject text NOT NULL,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (case_id, step)
);
