-- Blocks (decision 302): a trademark label blocked across the TLDs of a block product (DPML,
-- brand blocks) with the provider, for a term. The order's charge is reserved in the transaction
-- that makes the row and queues the job that places it (decision 301); the row names its charge.
-- Stored states: pending (ordered, not yet placed), active, expired (the term ended), cancelled,
-- failed (the provider refused; its reason kept). "Expiring" is an active block near its expiry.
CREATE TABLE blocks (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  label text NOT NULL CHECK (label ~ '^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$'),
  label_unicode text NOT NULL,
  product_id uuid REFERENCES products (id),
  product_code text NOT NULL,
  provider_product text NOT NULL,
  period_years integer NOT NULL CHECK (period_years BETWEEN 1 AND 10),
  trademark_ref text NOT NULL CHECK (length(trademark_ref) BETWEEN 1 AND 255),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'expired', 'cancelled', 'failed')),
  covered_tlds text[] NOT NULL DEFAULT '{}',
  provider text,
  provider_id text,
  placed_at timestamptz,
  expires_at timestamptz,
  cancelled_at timestamptz,
  charge_key text,
  failure_reason text,
  created_by text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One live block of a label per product and account: a second order of it is refused before it is charged.
CREATE UNIQUE INDEX blocks_live_label ON blocks (account_id, label, product_code) WHERE status IN ('pending', 'active');
CREATE INDEX blocks_account_created ON blocks (account_id, created_at DESC NULLS LAST, id);
CREATE INDEX blocks_created ON blocks (created_at DESC NULLS LAST, id);
CREATE INDEX blocks_expiry ON blocks (expires_at) WHERE status = 'active';
