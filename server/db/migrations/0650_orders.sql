-- Domain orders (issue 6): a server-side cart per user and account, orders whose items run as jobs,
-- and a log of every step of every item. Money is integer minor units plus an ISO currency.

CREATE TABLE cart_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('register', 'transfer', 'renew')),
  name text NOT NULL,               -- ASCII (punycode) form, lower case
  unicode_name text NOT NULL,
  tld text NOT NULL,
  period integer NOT NULL CHECK (period BETWEEN 1 AND 10),
  -- A transfer's auth code is a secret: kept until the order runs, never returned or audited.
  auth_code text,
  price_minor bigint NOT NULL CHECK (price_minor >= 0),
  currency char(3) NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (type <> 'transfer' OR coalesce(auth_code, '') <> '')
);
CREATE UNIQUE INDEX cart_items_user_name_key ON cart_items (account_id, user_id, name);

CREATE TABLE orders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id),
  user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  created_by text NOT NULL,
  -- Derived from the items after every change of one, so the list can filter and sort on it.
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'processing', 'completed', 'failed', 'cancelled', 'partial')),
  item_count integer NOT NULL DEFAULT 0,
  completed_count integer NOT NULL DEFAULT 0,
  failed_count integer NOT NULL DEFAULT 0,
  names text NOT NULL DEFAULT '',   -- the items' names, for the list's "contains" filter
  totals jsonb NOT NULL DEFAULT '[]'::jsonb,   -- [{ currency, minor }] one per currency
  total_text text NOT NULL DEFAULT '',
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX orders_account_created_idx ON orders (account_id, created_at, id);
CREATE INDEX orders_account_state_idx ON orders (account_id, state, created_at);

CREATE TABLE order_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id),
  position integer NOT NULL,
  type text NOT NULL CHECK (type IN ('register', 'transfer', 'renew')),
  name text NOT NULL,
  unicode_name text NOT NULL,
  tld text NOT NULL,
  period integer NOT NULL CHECK (period BETWEEN 1 AND 10),
  auth_code text,
  -- The auth code we give a name we register: it also proves, after a lost answer, that it is ours.
  new_auth_code text,
  price_minor bigint NOT NULL CHECK (price_minor >= 0),
  currency char(3) NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'processing', 'completed', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  -- Attempts of the current run (reset when the user retries), against the automatic retry limit.
  run_attempts integer NOT NULL DEFAULT 0,
  last_error text,
  registry_code integer,
  domain_id uuid REFERENCES domains (id),
  transfer_checks integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX order_items_order_idx ON order_items (order_id, position);
CREATE INDEX order_items_account_name_idx ON order_items (account_id, name);

CREATE TABLE order_item_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  item_id uuid NOT NULL REFERENCES order_items (id) ON DELETE CASCADE,
  occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  state text NOT NULL,
  message text NOT NULL,
  registry_code integer,
  actor_label text NOT NULL DEFAULT 'system'
);
CREATE INDEX order_item_events_item_idx ON order_item_events (item_id, occurred_at, id);
