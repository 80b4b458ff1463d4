-- The scripts a TLD takes in its labels (issue 26, decision 104), ISO 15924 codes (Latn, Cyrl,
-- Jpan…). NULL: the default of common/idna.ts tldScripts — an IDN TLD its own script, a few country
-- codes Latin and their national script, every other TLD Latin only.
ALTER TABLE tlds ADD COLUMN idn_scripts text[];
