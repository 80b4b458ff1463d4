-- The SSL report's gap (issue 29): which hosted names no valid certificate covers is asked as
-- `names && ARRAY[name, wildcard]` per name; without this index each name scanned every
-- certificate of its account (1.5M names × 100k certificates did not finish in bench/reports.ts).
CREATE INDEX ssl_certificates_names_idx ON ssl_certificates USING gin (names);
