-- SSL (issue 19): reissues and imported certificates. An imported certificate (bought elsewhere,
-- tracked for its expiry) has no CSR here and perhaps no key; where each certificate of a coverage
-- term came from is kept, so the term's chain reads first order → renewals → reissues.
ALTER TABLE ssl_certificates DROP CONSTRAINT ssl_certificates_key_source_check;
ALTER TABLE ssl_certificates ADD CONSTRAINT ssl_certificates_key_source_check CHECK (key_source IN ('generated', 'csr', 'imported'));
ALTER TABLE ssl_certificates DROP CONSTRAINT ssl_certificates_check;
ALTER TABLE ssl_certificates ADD CONSTRAINT ssl_certificates_generated_key_check CHECK (key_source <> 'generated' OR private_key_enc IS NOT NULL);
ALTER TABLE ssl_certificates ADD COLUMN origin text NOT NULL DEFAULT 'order' CHECK (origin IN ('order', 'renewal', 'reissue', 'import'));
UPDATE ssl_certificates SET origin = 'renewal' WHERE renewal_of IS NOT NULL;
