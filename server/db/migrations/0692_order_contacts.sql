-- The contacts a registration is created with (issue 6): chosen at checkout, kept on the order so
-- that every item (and every retry) registers with the same ones. Contact ids of the order's
-- account, one per role: {"registrant": …, "admin": …, "tech": …, "billing": …}. NULL for an
-- order without registrations.
ALTER TABLE orders ADD COLUMN contacts jsonb
  CHECK (contacts IS NULL OR (jsonb_typeof(contacts) = 'object' AND contacts ? 'registrant' AND contacts ? 'admin' AND contacts ? 'tech' AND contacts ? 'billing'));
