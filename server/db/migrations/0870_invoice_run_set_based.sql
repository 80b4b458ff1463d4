-- Issue 18: the monthly invoice run is set-based, and writes nothing per charge but its line.
--
-- No charge is marked invoiced: the invoice of an entity, month and currency is made once
-- (unique), so the month a charge settled in says which invoice has it. Marking a million charges
-- was most of the run's time.
ALTER TABLE transactions DROP COLUMN invoice_id;

-- Foreign keys checked a row at a time cost a trigger call per line (and the one to transactions
-- locks the charge's row, FOR KEY SHARE, a write): a million each per run. Their guarantees are
-- kept set-wise instead: a statement's new lines are checked against invoices at once, and what a
-- line names is never deleted nor a line changed (documents issued are never edited).
ALTER TABLE invoice_lines DROP CONSTRAINT invoice_lines_transaction_id_fkey;
ALTER TABLE invoice_lines DROP CONSTRAINT invoice_lines_invoice_id_fkey;

CREATE FUNCTION invoice_lines_check_invoice() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM new_lines l WHERE NOT EXISTS (SELECT 1 FROM invoices i WHERE i.id = l.invoice_id)) THEN
    RAISE EXCEPTION 'an invoice line names no invoice' USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER invoice_lines_check_invoice AFTER INSERT ON invoice_lines REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION invoice_lines_check_invoice();

CREATE FUNCTION billing_records_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are never % (invoices and their lines name them)', TG_TABLE_NAME, lower(TG_OP) || 'd' USING ERRCODE = 'restrict_violation';
END
$$;
CREATE TRIGGER transactions_never_deleted BEFORE DELETE ON transactions FOR EACH STATEMENT EXECUTE FUNCTION billing_records_kept();
CREATE TRIGGER invoices_never_deleted BEFORE DELETE ON invoices FOR EACH STATEMENT EXECUTE FUNCTION billing_records_kept();
CREATE TRIGGER invoice_lines_never_changed BEFORE UPDATE OR DELETE ON invoice_lines FOR EACH STATEMENT EXECUTE FUNCTION billing_records_kept();

-- The documents not mailed yet are the mail's outbox: the mail job claims a few (mail_claimed_at),
-- mails them and marks them mailed; a claim older than ten minutes (a worker that died) is taken again.
ALTER TABLE invoices ADD COLUMN mail_claimed_at timestamptz;
CREATE INDEX invoices_unmailed_idx ON invoices (issued_at) WHERE mailed_at IS NULL;
