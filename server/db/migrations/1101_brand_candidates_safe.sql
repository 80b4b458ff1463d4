-- A candidate a person has looked at and found harmless (issue 30): marked safe, it stays so when
-- candidates are checked again, until it is unmarked.
ALTER TABLE brand_candidates DROP CONSTRAINT brand_candidates_status_check;
ALTER TABLE brand_candidates ADD CONSTRAINT brand_candidates_status_check CHECK (status IN ('unchecked', 'ours', 'blocked', 'registered', 'available', 'safe'));
