-- Portfolio list speed (issue 6, bench/domains.ts). The list engine orders ascending with NULLS FIRST
-- and descending with NULLS LAST (a missing value sorts as the smallest), and PostgreSQL reads a
-- btree in order only when the NULLS placement matches — even on a NOT NULL column. The sort
-- indexes of 0001/0600 use the default placement, so every sorted page of a 600,000-domain account
-- sorted all of them. These indexes follow the engine's placement: a forward scan serves the
-- descending sort, a backward scan (plus an incremental sort on id) the ascending one.
-- The older indexes stay: hand-written queries elsewhere order by name/expiry with the default
-- placement and use them.
--
-- The expiry index also carries name and status, so the capped count and deep pages of
-- "name contains … and expires_at between …" are read from the index alone (no heap visit per row).
CREATE INDEX domains_list_expires_idx ON domains (account_id, expires_at DESC NULLS LAST, id) INCLUDE (name, status);
CREATE INDEX domains_list_name_idx ON domains (account_id, name NULLS FIRST, id) INCLUDE (status);
