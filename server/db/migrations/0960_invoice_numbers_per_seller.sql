-- Issue 26: an invoice number identifies one document of its seller (EN 16931 BT-1, VAT directive
-- art. 226(2)). Numbers were counted per billing entity, so every entity's first invoice of a year
-- was INV-YYYY-000001. Now each seller (known by its VAT id, as each document keeps it, decision
-- 301) has one gapless series per year for its invoices (INV-YYYY-NNNNNN) and another for its
-- credit notes (CN-YYYY-NNNNNN): the counter row is advanced in the transaction that writes the
-- documents, so a number is never taken without its document nor twice.
CREATE TABLE invoice_series (
  series text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('invoice', 'credit-note')),
  year integer NOT NULL,
  last_seq integer NOT NULL CHECK (last_seq > 0),
  PRIMARY KEY (series, kind, year)
);

-- The series a document's number belongs to: its seller's VAT id. Documents issued before this
-- migration were numbered per billing entity and are kept as issued (a number mailed is never
-- changed): their series says so ('entity:' and the entity's id), in which each number was unique.
ALTER TABLE invoices ADD COLUMN series text;
UPDATE invoices SET series = 'entity:' || billing_entity_id::text;
ALTER TABLE invoices ALTER COLUMN series SET NOT NULL;
ALTER TABLE invoices ADD CONSTRAINT invoices_series_known CHECK (series = seller ->> 'vat_id' OR series = 'entity:' || billing_entity_id::text);
ALTER TABLE invoices ADD CONSTRAINT invoices_series_number_key UNIQUE (series, number);
ALTER TABLE invoices DROP CONSTRAINT invoices_billing_entity_id_year_seq_key;
DROP TABLE invoice_counters;
-- Each seller's series continue above every number it issued per entity, so no new number is one
-- an older document of the same seller already carries.
INSERT INTO invoice_series (series, kind, year, last_seq)
SELECT seller ->> 'vat_id', kind, year, max(seq) FROM invoices GROUP BY 1, 2, 3;

-- A credit note names the invoice it corrects (BG-3) and carries that invoice's period (BG-14);
-- the month of the run that issued a document is run_period (an invoice's is its period). One
-- invoice per entity, month and currency, as before; one credit note per invoice and run.
ALTER TABLE invoices ADD COLUMN corrects_invoice_id uuid REFERENCES invoices (id);
ALTER TABLE invoices ADD COLUMN run_period date;
UPDATE invoices SET run_period = period;
ALTER TABLE invoices ALTER COLUMN run_period SET NOT NULL;
ALTER TABLE invoices DROP CONSTRAINT invoices_billing_entity_id_period_currency_kind_key;
CREATE UNIQUE INDEX invoices_one_per_month ON invoices (billing_entity_id, period, currency) WHERE kind = 'invoice';
CREATE UNIQUE INDEX invoices_credit_note_per_run ON invoices (corrects_invoice_id, run_period) WHERE kind = 'credit-note';
CREATE INDEX invoices_run_period_idx ON invoices (run_period);
-- A credit note issued before names the invoice its charges were on where they were on one.
UPDATE invoices c SET corrects_invoice_id = o.invoice_id
FROM (
  SELECT l.invoice_id AS credit_note_id, min(i.id::text)::uuid AS invoice_id
  FROM invoice_lines l
  JOIN transactions t ON t.id = l.transaction_id
  JOIN invoices i ON i.billing_entity_id = t.billing_entity_id AND i.kind = 'invoice' AND i.currency = t.currency
    AND i.period = date_trunc('month', t.settled_at AT TIME ZONE 'UTC')::date
  GROUP BY l.invoice_id
  HAVING count(DISTINCT i.id) = 1
) o
WHERE c.id = o.credit_note_id AND c.kind = 'credit-note';
ALTER TABLE invoices ADD CONSTRAINT invoices_only_credit_notes_correct CHECK (kind = 'credit-note' OR corrects_invoice_id IS NULL);

-- A credit note is not paid: it has no due date (EN 16931 BT-9 is an invoice's).
ALTER TABLE invoices ALTER COLUMN due_at DROP NOT NULL;
UPDATE invoices SET due_at = NULL WHERE kind = 'credit-note';
ALTER TABLE invoices ADD CONSTRAINT invoices_due_of_invoices CHECK ((kind = 'invoice') = (due_at IS NOT NULL));
