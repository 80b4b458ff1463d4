-- Issue 17: an exchange rate keeps the date it is the reference rate of (the ECB's daily file names
-- its day), so a quote shows the rate and the day it was published, not the moment staff saved it.
-- Null for a rate typed by hand (its updated_at stands for its date).
ALTER TABLE currency_rates ADD COLUMN rate_date date;
