-- Exchange rates (issue 16: an account billed in USD saw its cart and orders in euros). A TLD is
-- priced in one currency (tlds.currency); an account is billed in its own (accounts.currency).
-- An item is priced in the account's currency: the TLD's list price converted at the rate kept
-- here by staff. Without a rate between the two the item is refused, never shown in the wrong
-- currency or converted at a guessed rate.
CREATE TABLE currency_rates (
  from_currency char(3) NOT NULL CHECK (from_currency ~ '^[A-Z]{3}$'),
  to_currency char(3) NOT NULL CHECK (to_currency ~ '^[A-Z]{3}$'),
  -- One unit of from_currency in to_currency (1 EUR = 1.08 USD); never zero or negative.
  rate numeric(20, 10) NOT NULL CHECK (rate > 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (from_currency, to_currency),
  -- A currency needs no rate to itself.
  CHECK (from_currency <> to_currency)
);
