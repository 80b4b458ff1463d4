-- Issue 17: an account whose price rises with a rule window that takes effect later is mailed a
-- notice its price list's notice_days before; one row per rule window, its version and account,
-- written before the mail goes, so each change is announced once (a changed window is a new
-- version, announced again).
CREATE TABLE price_rise_notices (
  rule_id uuid NOT NULL REFERENCES pricing_rules (id) ON DELETE CASCADE,
  rule_version integer NOT NULL,
  account_id uuid NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  sent_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (rule_id, rule_version, account_id)
);
