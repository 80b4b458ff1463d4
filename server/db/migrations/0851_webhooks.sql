-- Webhooks (issue 20): per-account endpoints, an outbox of events written in the same transaction
-- as the change they describe, and one delivery per event and endpoint with its attempts.

CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  url text NOT NULL,
  description text NOT NULL DEFAULT '',
  events text[] NOT NULL,
  -- Standard Webhooks secret (whsec_ + base64). During a rotation the previous one also signs
  -- until previous_secret_expires_at.
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  -- The first failure of the current run of failures; five days of it disables the endpoint.
  failing_since timestamptz,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints (account_id);

-- The outbox: an event is a row committed with its change, or nothing at all.
CREATE TABLE webhook_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  type text NOT NULL,
  data jsonb NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  -- Set once the event is fanned out to the endpoints that want it.
  dispatched_at timestamptz
);
CREATE INDEX webhook_events_pending_idx ON webhook_events (occurred_at) WHERE dispatched_at IS NULL;

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  -- pending (waiting for an attempt), succeeded, failed (gave up or the endpoint is gone).
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz,
  last_status integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One delivery per event and endpoint (a test ping or a replay is an event of its own).
CREATE UNIQUE INDEX webhook_deliveries_event_endpoint_key ON webhook_deliveries (event_id, endpoint_id);
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC);

-- Each request made: the delivery log of an endpoint.
CREATE TABLE webhook_attempts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  attempted_at timestamptz NOT NULL DEFAULT now(),
  status integer,
  response_excerpt text NOT NULL DEFAULT '',
  error text,
  duration_ms integer NOT NULL DEFAULT 0
);
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, attempted_at DESC);

-- Every process that works jobs hears of a new event at commit and fans it out at once; a sweep
-- each minute catches what nobody heard (a process down at the time).
CREATE FUNCTION notify_webhook_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('webhook_events', '');
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_events_notify AFTER INSERT ON webhook_events FOR EACH STATEMENT EXECUTE FUNCTION notify_webhook_event();
