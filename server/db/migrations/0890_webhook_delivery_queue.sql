-- Webhook deliveries are their own queue (issue 20, decision 021): the sending process claims due
-- deliveries in batches (FOR UPDATE SKIP LOCKED) instead of one job engine job per delivery.
--
-- A pending delivery is due at next_attempt_at (now when made, later for a retry). A sender
-- holds the ones it claimed until claimed_until, and renews that while it holds them; a sender that
-- died lets them go when its claim runs out. The claim is a column of its own, not indexed, so
-- claiming a row can be a heap-only update and never moves a retry's time.
ALTER TABLE webhook_deliveries ADD COLUMN claimed_until timestamptz;
ALTER TABLE webhook_deliveries SET (fillfactor = 80);
UPDATE webhook_deliveries SET next_attempt_at = coalesce(next_attempt_at, created_at) WHERE state = 'pending';
ALTER TABLE webhook_deliveries ALTER COLUMN next_attempt_at SET DEFAULT now();
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';

-- An attempt's endpoint is its delivery's, written with it, and the delivery's own foreign key
-- removes the attempt with its endpoint (cascade through the delivery): the second key's check on
-- each attempt logged guarded nothing more.
ALTER TABLE webhook_attempts DROP CONSTRAINT webhook_attempts_endpoint_id_fkey;
