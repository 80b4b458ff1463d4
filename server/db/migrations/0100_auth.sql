-- Sign-in: second factor, password resets, the authentication log and persisted failure counters.

-- One TOTP secret per user. enabled_at is null while the enrolment waits for its first code.
CREATE TABLE user_two_factor (
  user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  secret text NOT NULL,             -- base32, as shown to the authenticator app
  enabled_at timestamptz,
  -- The RFC 6238 time step of the last accepted code: a code is accepted once, never again.
  last_used_step bigint,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Single-use recovery codes; only a SHA-256 of each is stored.
CREATE TABLE two_factor_recovery_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  code_hash text NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX two_factor_recovery_codes_user_idx ON two_factor_recovery_codes (user_id) WHERE used_at IS NULL;

-- Password reset links: a SHA-256 of the token, valid one hour, used once.
CREATE TABLE password_resets (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  requested_ip text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX password_resets_token_key ON password_resets (token_hash);
CREATE INDEX password_resets_user_idx ON password_resets (user_id) WHERE used_at IS NULL;

-- Every sign-in attempt, successful or not. user_id is null when the name matched nobody.
CREATE TABLE auth_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  account_id uuid REFERENCES accounts (id) ON DELETE SET NULL,
  email text,
  kind text NOT NULL CHECK (kind IN ('password', 'two_factor', 'sso', 'refresh', 'reset', 'logout')),
  outcome text NOT NULL CHECK (outcome IN ('success', 'failure')),
  reason text NOT NULL DEFAULT '',
  ip text NOT NULL DEFAULT '',
  user_agent text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX auth_events_account_idx ON auth_events (account_id, created_at DESC, id);
CREATE INDEX auth_events_user_idx ON auth_events (user_id, created_at DESC);
CREATE INDEX auth_events_created_idx ON auth_events (created_at DESC, id);

-- Failure counters of brute-force throttling, in the database so that a restart keeps them.
-- A window opens at the first failure; at the limit further attempts wait for its end.
CREATE TABLE auth_failure_counters (
  key text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  failures integer NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Sessions end when a user is disabled or their password changes, whoever makes the change:
-- the database revokes every token of that user, so no code path can forget it.
CREATE FUNCTION users_revoke_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status <> OLD.status AND NEW.status <> 'active'
     OR NEW.password_hash IS DISTINCT FROM OLD.password_hash THEN
    UPDATE auth_tokens SET revoked_at = now() WHERE user_id = NEW.id AND revoked_at IS NULL;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER users_revoke_tokens AFTER UPDATE OF status, password_hash ON users
  FOR EACH ROW EXECUTE FUNCTION users_revoke_tokens();
