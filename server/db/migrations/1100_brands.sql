-- Brand protection (issue 30, decision 029): an account's brands — a label, the domains it protects,
-- the words of its dictionary (combosquatting) and the fuzzers to run (none: every one) — and the
-- lookalike candidates the engine made of each, with what is known of each: ours (in the
-- account's portfolio), blocked (an active block covers it), registered by someone else (the DNS
-- answers as evidence) or available (with the account's price to register it defensively).
CREATE TABLE brands (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  label text NOT NULL CHECK (length(label) BETWEEN 1 AND 63),
  domains text[] NOT NULL DEFAULT '{}',
  dictionary text[] NOT NULL DEFAULT '{}',
  fuzzers text[] NOT NULL DEFAULT '{}',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX brands_account_label ON brands (account_id, label);

CREATE TABLE brand_candidates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  brand_id uuid NOT NULL REFERENCES brands (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  -- The registrable name, ASCII (an IDN in punycode), and as a person reads it.
  name text NOT NULL,
  unicode_name text NOT NULL,
  tld text NOT NULL,
  fuzzers text[] NOT NULL,
  score integer NOT NULL CHECK (score BETWEEN 0 AND 100),
  status text NOT NULL DEFAULT 'unchecked' CHECK (status IN ('unchecked', 'ours', 'blocked', 'registered', 'available')),
  price_minor bigint,
  currency text,
  evidence jsonb,
  first_seen_at timestamptz NOT NULL DEFAULT now(),
  checked_at timestamptz
);
CREATE UNIQUE INDEX brand_candidates_brand_name ON brand_candidates (brand_id, name);
CREATE INDEX brand_candidates_account_score ON brand_candidates (account_id, score DESC, id);
