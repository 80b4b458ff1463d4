-- API tokens (issue 20): long-lived bearer tokens of the Platform API that a user makes for
-- themselves, or an account admin for a service user. Only a SHA-256 of the secret is stored.
-- A service user is a user of an account who never signs in (no password, no invitation): it
-- exists to hold API tokens.
ALTER TABLE users ADD COLUMN kind text NOT NULL DEFAULT 'person' CHECK (kind IN ('person', 'service'));

CREATE TABLE api_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- "token N of user U" in the audit trail and on the screens.
  number bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  -- The token dies with its user.
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_by uuid REFERENCES users (id) ON DELETE SET NULL,
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
  token_hash text NOT NULL UNIQUE,
  -- The first characters of the secret, to recognise it in a list (never enough to use it).
  hint text NOT NULL,
  -- What the token may do: a subset of its creator's permissions, checked again at each use
  -- against what its user holds then.
  permissions text[] NOT NULL,
  -- When set, the only account (context) the token acts in.
  account_id uuid REFERENCES accounts (id) ON DELETE CASCADE,
  -- When not empty, the token reaches only domains carrying one of these tags.
  domain_tags text[] NOT NULL DEFAULT '{}',
  -- When not empty, the client addresses (CIDR) the token is accepted from.
  cidrs text[] NOT NULL DEFAULT '{}',
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_tokens_user_idx ON api_tokens (user_id);

-- Last use, apart from the token: writing it must not tell every process that the token changed
-- (the trigger below drops cached tokens; decision 011).
CREATE TABLE api_token_uses (
  token_id uuid PRIMARY KEY REFERENCES api_tokens (id) ON DELETE CASCADE,
  used_at timestamptz NOT NULL,
  address text NOT NULL
);

-- A token revoked, changed or deleted (with its user or by hand) is dropped from every process's
-- cache at commit, like the sign-in tokens (migration 0694).
CREATE TRIGGER api_tokens_notify_change AFTER UPDATE OR DELETE ON api_tokens FOR EACH ROW EXECUTE FUNCTION notify_auth_change('user_id');
