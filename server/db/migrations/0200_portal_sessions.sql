-- Server-side portal sessions: the browser holds only a signed random id; the tokens stay here.
-- The primary key is the SHA-256 of that id, so a database leak gives no usable cookie.
CREATE TABLE portal_sessions (
  id text PRIMARY KEY,
  -- 'two_factor' while the password step is done and the code is awaited; 'active' once signed in.
  stage text NOT NULL DEFAULT 'active' CHECK (stage IN ('two_factor', 'active')),
  user_id uuid,
  access_token text NOT NULL,
  refresh_token text NOT NULL DEFAULT '',
  -- Spec §3: UTC 'YYYY-MM-DD HH:mm:ss', 12 hours after login; compared as text (the format sorts).
  expires text NOT NULL,
  sso_token text,
  application_id text,
  user_data jsonb NOT NULL DEFAULT '{}'::jsonb,
  -- Set while one process refreshes the tokens, so that no other process refreshes the same pair.
  refreshing_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX portal_sessions_user_idx ON portal_sessions (user_id);
CREATE INDEX portal_sessions_expires_idx ON portal_sessions (expires);

-- Fixed-window counters for the sign-in screens (the API keeps its own throttling).
CREATE TABLE portal_rate_limits (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  hits integer NOT NULL
);
