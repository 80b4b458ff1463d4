-- Billing (issue 18): who pays (billing entities, the accounts they pay for, a prepaid balance or a
-- credit limit per currency, payments and adjustments) and what is charged (one transaction per
-- billable action, written in the same database transaction as the action). Money is integer minor
-- units of its currency.

CREATE TABLE billing_entities (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
  -- Spec §3's address: street1, street2, street3, city, state, postcode (country is its own column).
  address jsonb NOT NULL DEFAULT '{}'::jsonb,
  country char(2) NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  vat_id text,
  currency char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  payment_terms_days integer NOT NULL DEFAULT 30 CHECK (payment_terms_days BETWEEN 0 AND 365),
  invoice_language text NOT NULL DEFAULT 'en' CHECK (invoice_language IN ('en', 'es', 'ja')),
  billing_email text NOT NULL,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX billing_entities_name_key ON billing_entities (lower(name));

-- The accounts a billing entity pays for: an account has at most one.
ALTER TABLE accounts ADD COLUMN billing_entity_id uuid REFERENCES billing_entities (id);
CREATE INDEX accounts_billing_entity_idx ON accounts (billing_entity_id);

-- One money position per entity and currency. balance_minor: payments and adjustments minus charges
-- (reserved and settled) plus refunds. An order may take it down to -credit_limit_minor, never
-- further (prepaid: a limit of 0). The row is locked (FOR UPDATE) by every charge, so two orders at
-- the same moment cannot together overdraw it.
CREATE TABLE billing_balances (
  billing_entity_id uuid NOT NULL REFERENCES billing_entities (id),
  currency char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  balance_minor bigint NOT NULL DEFAULT 0,
  credit_limit_minor bigint NOT NULL DEFAULT 0 CHECK (credit_limit_minor >= 0),
  low_balance_minor bigint,
  low_balance_warned_at timestamptz,
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (billing_entity_id, currency),
  CHECK (balance_minor >= -credit_limit_minor)
);

-- Payments received and adjustments staff make (an adjustment below zero carries its reason).
CREATE TABLE billing_payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  billing_entity_id uuid NOT NULL REFERENCES billing_entities (id),
  kind text NOT NULL CHECK (kind IN ('payment', 'adjustment')),
  currency char(3) NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor <> 0),
  reference text NOT NULL DEFAULT '',
  reason text NOT NULL DEFAULT '',
  balance_after_minor bigint NOT NULL,
  created_by text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CHECK (kind = 'adjustment' OR amount_minor > 0),
  CHECK (kind = 'payment' OR reason <> '')
);
CREATE INDEX billing_payments_entity_idx ON billing_payments (billing_entity_id, created_at);

-- One row per billable action. reserved when the item is submitted, settled when the registry
-- confirms, released when it fails or is cancelled, refunded (a credit) afterwards. The
-- idempotency key names the action (order-item:{id}): a retry finds its row, never a second charge.
CREATE TABLE transactions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  idempotency_key text NOT NULL UNIQUE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  billing_entity_id uuid REFERENCES billing_entities (id),
  state text NOT NULL DEFAULT 'reserved' CHECK (state IN ('reserved', 'settled', 'released', 'refunded')),
  kind text NOT NULL,            -- the product's kind: domain, ssl, block, service
  action text NOT NULL,          -- register, transfer, renew, …
  product_id uuid REFERENCES products (id),
  product_code text NOT NULL,
  object_name text NOT NULL DEFAULT '',   -- the domain (or certificate) charged for
  domain_id uuid REFERENCES domains (id),
  order_id uuid REFERENCES orders (id),
  order_item_id uuid REFERENCES order_items (id),
  period integer NOT NULL DEFAULT 1,
  quantity integer NOT NULL DEFAULT 1,
  unit_minor bigint NOT NULL,
  amount_minor bigint NOT NULL CHECK (amount_minor >= 0),
  tax_minor bigint NOT NULL DEFAULT 0,
  currency char(3) NOT NULL,
  -- The quote the action was placed at: price, chain of rules, rates with their dates.
  quote jsonb,
  actor_label text NOT NULL,
  actor_user_id uuid,
  reason text NOT NULL DEFAULT '',
  settled_at timestamptz,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX transactions_account_created_idx ON transactions (account_id, created_at, id);
CREATE INDEX transactions_created_idx ON transactions (created_at, id);
CREATE INDEX transactions_entity_created_idx ON transactions (billing_entity_id, created_at);
CREATE INDEX transactions_domain_idx ON transactions (domain_id) WHERE domain_id IS NOT NULL;
CREATE INDEX transactions_item_idx ON transactions (order_item_id) WHERE order_item_id IS NOT NULL;
