-- Opaque bearer tokens of the Platform API. Only a SHA-256 of each token is stored.
CREATE TABLE auth_tokens (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id),
  kind text NOT NULL CHECK (kind IN ('access', 'refresh', 'two_factor')),
  token_hash text NOT NULL,
  -- A login starts a family; every rotated refresh token stays in it, so reuse revokes them all.
  family_id uuid NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX auth_tokens_hash_key ON auth_tokens (token_hash);
CREATE INDEX auth_tokens_user_idx ON auth_tokens (user_id, kind) WHERE revoked_at IS NULL;
CREATE INDEX auth_tokens_family_idx ON auth_tokens (family_id);
