-- SSL certificates over ACME (issue 19). A coverage term is what the customer bought (a product for
-- a period); the certificates issued under it (first issue, renewals, reissues) each point at it, so
-- the chain of certificates of one purchase is never lost.

-- One ACME account per CA directory: its key (encrypted with the server's key) and its URL (kid).
CREATE TABLE ssl_acme_accounts (
  directory_url text PRIMARY KEY,
  account_key_enc text NOT NULL,
  account_url text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ssl_terms (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  product text NOT NULL,
  period_months integer NOT NULL CHECK (period_months BETWEEN 1 AND 120),
  starts_at timestamptz NOT NULL DEFAULT now(),
  ends_at timestamptz NOT NULL,
  -- Expiry notices already sent for this term (days before its end): once per term, not per certificate.
  notices_sent integer[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE ssl_certificates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  term_id uuid NOT NULL REFERENCES ssl_terms (id),
  status text NOT NULL DEFAULT 'draft'
    CHECK (status IN ('draft', 'pending_validation', 'issuing', 'issued', 'expiring', 'expired', 'revoked', 'failed', 'cancelled')),
  product text NOT NULL,
  validation_level text NOT NULL DEFAULT 'dv' CHECK (validation_level IN ('dv', 'ov', 'ev')),
  common_name text NOT NULL,
  -- Every name on the certificate, the common name first (lower-case ASCII, `*.` for a wildcard).
  names text[] NOT NULL CHECK (cardinality(names) >= 1),
  key_type text NOT NULL,
  key_source text NOT NULL CHECK (key_source IN ('generated', 'csr')),
  csr_pem text NOT NULL,
  -- A key we generated, AES-256-GCM with the server's key (never logged, never answered but by the audited download).
  private_key_enc text,
  ca text NOT NULL,
  directory_url text NOT NULL,
  -- The ACME order once made: the issuance job resumes from it after a restart.
  acme_order_url text,
  certificate_pem text,
  chain_pem text,
  serial text,
  not_before timestamptz,
  not_after timestamptz,
  issued_at timestamptz,
  -- When the renewal sweep orders this certificate's successor (ARI where offered, else 2/3 of its life).
  renew_after timestamptz,
  renewal_of uuid REFERENCES ssl_certificates (id),
  revoked_at timestamptz,
  revocation_reason text,
  failure_reason text,
  created_by text NOT NULL DEFAULT '',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (key_source = 'csr' OR private_key_enc IS NOT NULL)
);
CREATE INDEX ssl_certificates_account_created_idx ON ssl_certificates (account_id, created_at, id);
CREATE INDEX ssl_certificates_term_idx ON ssl_certificates (term_id, created_at);
-- The renewal sweep reads issued certificates due for renewal.
CREATE INDEX ssl_certificates_renew_idx ON ssl_certificates (renew_after) WHERE status IN ('issued', 'expiring');
-- One successor per certificate: a sweep that runs twice cannot order two renewals.
CREATE UNIQUE INDEX ssl_certificates_renewal_of_key ON ssl_certificates (renewal_of) WHERE renewal_of IS NOT NULL;

-- Per name of a certificate: how it is proven and where that stands.
CREATE TABLE ssl_validations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  certificate_id uuid NOT NULL REFERENCES ssl_certificates (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  method text NOT NULL DEFAULT 'dns-01' CHECK (method IN ('dns-01', 'http-01')),
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'valid', 'invalid')),
  record_name text,
  record_value text,
  -- The zone of ours the TXT record went into, and the record (removed once validated).
  zone_id uuid,
  dns_record_id uuid,
  authorization_url text,
  challenge_url text,
  problem jsonb,
  checked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (certificate_id, name)
);
