-- The monthly run marks a million transactions invoiced (issue 18 benchmark). So that marking one
-- is a heap-only update (no index touched): no index may involve invoice_id, and each page keeps
-- room for the new version. The run finds an entity's charges of a month by when they settled.
DROP INDEX transactions_uninvoiced_idx;
CREATE INDEX transactions_entity_settled_idx ON transactions (billing_entity_id, settled_at);
ALTER TABLE transactions SET (fillfactor = 85);

-- An invoice's lines are keyed by the invoice and their position: no random uuid index to keep.
ALTER TABLE invoice_lines DROP CONSTRAINT invoice_lines_pkey;
ALTER TABLE invoice_lines DROP CONSTRAINT invoice_lines_invoice_id_position_key;
ALTER TABLE invoice_lines DROP COLUMN id;
ALTER TABLE invoice_lines ADD PRIMARY KEY (invoice_id, position);
