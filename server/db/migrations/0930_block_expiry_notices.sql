-- Blocks' expiry notices (decision 302): the expiry date the account's domain managers were last
-- mailed about. A block is noticed once per term: a renewal moves expires_at, so the next term's
-- notice goes out in its turn.
ALTER TABLE blocks ADD COLUMN expiry_noticed_for timestamptz;
