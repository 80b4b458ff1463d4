-- HTTP-01 (issue 19, RFC 8555 §8.3): for a name whose zone is not ours, the file to serve under
-- /.well-known/acme-challenge/ is kept beside the DNS-01 record, and the name's method says which
-- one the customer chose ("Check and validate" with the file answers the http-01 challenge).
ALTER TABLE ssl_validations ADD COLUMN http_token text;
ALTER TABLE ssl_validations ADD COLUMN http_content text;
