-- Per-CA pacing of new orders (issue 19): a CA limits how many orders an account may create in an
-- interval (Let's Encrypt: 300 per 3 hours). Every new order sent to a CA takes a slot here first,
-- under the lock of the CA's pacing row, so processes and workers share one count; an order that
-- finds the interval full waits (its job is queued again for when the oldest slot leaves it).
CREATE TABLE ssl_ca_pacing (
  directory_url text PRIMARY KEY
);

CREATE TABLE ssl_ca_orders (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  directory_url text NOT NULL REFERENCES ssl_ca_pacing (directory_url),
  certificate_id uuid NOT NULL REFERENCES ssl_certificates (id) ON DELETE CASCADE,
  ordered_at timestamptz NOT NULL
);
CREATE INDEX ssl_ca_orders_ca_time_idx ON ssl_ca_orders (directory_url, ordered_at);
CREATE INDEX ssl_ca_orders_certificate_idx ON ssl_ca_orders (certificate_id);
