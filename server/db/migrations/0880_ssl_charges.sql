-- SSL charges (issue 19): an order, and a renewal of its coverage term, are charged through billing
-- (decision 301) at the quote of the pricing engine. The certificate names the transaction it is
-- charged under (its idempotency key): settled when the CA issues it, released when it fails or is
-- cancelled. A reissue and a renewal inside the term are free (no key). A renewal of the term
-- extends the term by its months once that certificate is issued.
ALTER TABLE ssl_certificates ADD COLUMN charge_key text;
ALTER TABLE ssl_certificates ADD COLUMN term_months_added integer NOT NULL DEFAULT 0 CHECK (term_months_added BETWEEN 0 AND 120);
CREATE INDEX ssl_certificates_charge_idx ON ssl_certificates (term_id) WHERE charge_key IS NOT NULL;
