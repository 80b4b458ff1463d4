-- A user's pulse dashboard (issue 29, spec §3 pulse_configuration): the widgets they arranged, kept
-- on the server (never in the browser). No row: the defaults of their role (common/pulse.ts).
CREATE TABLE pulse_configurations (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  widgets jsonb NOT NULL,
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now()
);
