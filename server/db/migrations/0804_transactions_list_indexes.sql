-- The list engine sorts descending with NULLS LAST: the transaction list's default order (newest
-- first, id ascending) needs indexes in exactly that order, or a million rows are sorted for page 1.
DROP INDEX transactions_created_idx;
DROP INDEX transactions_account_created_idx;
CREATE INDEX transactions_created_idx ON transactions (created_at DESC NULLS LAST, id);
CREATE INDEX transactions_account_created_idx ON transactions (account_id, created_at DESC NULLS LAST, id);
