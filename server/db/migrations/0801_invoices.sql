-- Invoices (issue 18): a monthly run per billing entity, one invoice per currency with one line per
-- settled transaction of the month, a credit note for what was refunded after it was invoiced.
-- Numbers are gapless per billing entity and year: the counter row is locked and advanced in the
-- same transaction that writes the invoice and its lines, so a crash leaves neither a half invoice
-- nor a hole, and the run, idempotent, resumes where it stopped.

-- The tax rate per country staff keep (percent); a country not listed is taxed at 0.
CREATE TABLE tax_rates (
  country char(2) PRIMARY KEY CHECK (country ~ '^[A-Z]{2}$'),
  rate_percent numeric(5, 2) NOT NULL CHECK (rate_percent >= 0 AND rate_percent < 100),
  name text NOT NULL DEFAULT 'VAT',
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- One run per month: a closed month is run once; the run's job resumes the entities not done yet.
CREATE TABLE invoice_runs (
  period date PRIMARY KEY CHECK (extract(day FROM period) = 1),
  state text NOT NULL DEFAULT 'running' CHECK (state IN ('running', 'completed')),
  invoices integer NOT NULL DEFAULT 0,
  started_by text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);

CREATE TABLE invoice_counters (
  billing_entity_id uuid NOT NULL REFERENCES billing_entities (id),
  year integer NOT NULL,
  last_seq integer NOT NULL DEFAULT 0,
  PRIMARY KEY (billing_entity_id, year)
);

CREATE TABLE invoices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  billing_entity_id uuid NOT NULL REFERENCES billing_entities (id),
  kind text NOT NULL CHECK (kind IN ('invoice', 'credit-note')),
  period date NOT NULL,
  year integer NOT NULL,
  seq integer NOT NULL,
  number text NOT NULL,
  currency char(3) NOT NULL,
  language text NOT NULL,
  issued_at timestamptz NOT NULL,
  due_at timestamptz NOT NULL,
  subtotal_minor bigint NOT NULL,
  tax_rate_percent numeric(5, 2) NOT NULL,
  tax_minor bigint NOT NULL,
  total_minor bigint NOT NULL,
  reverse_charge boolean NOT NULL DEFAULT false,
  -- The buyer as invoiced (name, address, country, VAT id, mail address): later edits do not move it.
  buyer jsonb NOT NULL,
  mailed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (billing_entity_id, year, seq),
  UNIQUE (billing_entity_id, period, currency, kind),
  CHECK (total_minor = subtotal_minor + tax_minor)
);
CREATE INDEX invoices_entity_idx ON invoices (billing_entity_id, issued_at);

CREATE TABLE invoice_lines (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  invoice_id uuid NOT NULL REFERENCES invoices (id) ON DELETE CASCADE,
  position integer NOT NULL,
  transaction_id uuid REFERENCES transactions (id),
  description text NOT NULL,
  quantity integer NOT NULL,
  unit_minor bigint NOT NULL,
  amount_minor bigint NOT NULL,
  UNIQUE (invoice_id, position)
);

-- Which invoice charged a transaction, and which credit note gave it back: each at most once.
ALTER TABLE transactions ADD COLUMN invoice_id uuid REFERENCES invoices (id);
ALTER TABLE transactions ADD COLUMN credit_note_id uuid REFERENCES invoices (id);
CREATE INDEX transactions_uninvoiced_idx ON transactions (billing_entity_id, settled_at) WHERE invoice_id IS NULL AND state IN ('settled', 'refunded');
