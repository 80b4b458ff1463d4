-- The invoice run's credit-note pass looks for refunds not credited yet, per billing entity: without
-- this index each entity's look scanned every transaction (issue 18 benchmark, bench/billing.ts).
CREATE INDEX transactions_refunds_to_credit_idx ON transactions (billing_entity_id, updated_at) WHERE state = 'refunded' AND credit_note_id IS NULL;
