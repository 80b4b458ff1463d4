-- A change counter per account and list resource (decision 009). Every statement that inserts,
-- updates or deletes rows of `domains` bumps the counter of each account it touched, in the same
-- transaction. The list engine caches the ordered keys of a filtered, sorted list together with
-- the counter it read in the same snapshot, and serves the next pages and the count from them for
-- as long as the counter is unchanged: exact, because any committed change of those rows moves the
-- counter, and an uncommitted one is invisible to both.
CREATE TABLE list_versions (
  account_id uuid NOT NULL,
  resource text NOT NULL,
  version bigint NOT NULL DEFAULT 1,
  PRIMARY KEY (account_id, resource)
);

CREATE FUNCTION bump_list_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- One row per account touched; accounts in a fixed order, so two statements bumping the same
  -- accounts take the row locks in the same order.
  IF TG_OP = 'INSERT' THEN
    INSERT INTO list_versions AS v (account_id, resource)
      SELECT DISTINCT account_id, TG_ARGV[0] FROM new_rows ORDER BY 1
      ON CONFLICT (account_id, resource) DO UPDATE SET version = v.version + 1;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO list_versions AS v (account_id, resource)
      SELECT DISTINCT account_id, TG_ARGV[0] FROM old_rows ORDER BY 1
      ON CONFLICT (account_id, resource) DO UPDATE SET version = v.version + 1;
  ELSE
    INSERT INTO list_versions AS v (account_id, resource)
      SELECT account_id, TG_ARGV[0] FROM (SELECT account_id FROM new_rows UNION SELECT account_id FROM old_rows) touched ORDER BY 1
      ON CONFLICT (account_id, resource) DO UPDATE SET version = v.version + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER domains_list_version_insert AFTER INSERT ON domains
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('domains');
CREATE TRIGGER domains_list_version_update AFTER UPDATE ON domains
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('domains');
CREATE TRIGGER domains_list_version_delete AFTER DELETE ON domains
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('domains');

-- The portfolio list compares names and TLDs with LIKE on the lowercased value (FieldSpec
-- `lowercase`), which is right only while the columns hold nothing else: the database says so.
ALTER TABLE domains ADD CONSTRAINT domains_name_lowercase CHECK (name = lower(name) AND tld = lower(tld));
