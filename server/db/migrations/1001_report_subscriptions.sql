-- A report mailed on a schedule (issue 29): who subscribed, in which account's context, which
-- report with its filters, how often, and the last period it was mailed for — a period is mailed
-- once, even across a restart, because the job claims it by writing it here before sending.
CREATE TABLE report_subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  report text NOT NULL,
  filters jsonb NOT NULL DEFAULT '{}',
  frequency text NOT NULL CHECK (frequency IN ('weekly', 'monthly', 'quarterly')),
  last_period text,
  unsubscribe_token text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX report_subscriptions_user_idx ON report_subscriptions (user_id);
