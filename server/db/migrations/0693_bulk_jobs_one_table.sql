-- One bulk job mechanism (decision 203, "folding them together later"): the record replacements
-- of migration 0504 join the domain bulk jobs of 0680. A job's items are domains or zones
-- (exactly one of the two per item); a zone item also counts the records it changed. Existing
-- replacement jobs and their results are copied with their ids, so a job still queued runs on.
ALTER TABLE bulk_jobs DROP CONSTRAINT bulk_jobs_action_check;
ALTER TABLE bulk_jobs ADD CONSTRAINT bulk_jobs_action_check
  CHECK (action IN ('renew', 'auto_renew_on', 'auto_renew_off', 'lock', 'unlock', 'set_contacts', 'set_nameservers', 'replace_record_content'));

ALTER TABLE bulk_job_items ALTER COLUMN domain_id DROP NOT NULL;
-- No foreign key to zones (as in 0504): a zone deleted meanwhile is a failed item, not a lost result.
ALTER TABLE bulk_job_items ADD COLUMN zone_id uuid;
ALTER TABLE bulk_job_items ADD COLUMN records integer;
ALTER TABLE bulk_job_items ADD CONSTRAINT bulk_job_items_subject_check CHECK ((domain_id IS NULL) <> (zone_id IS NULL));

INSERT INTO bulk_jobs (id, account_id, user_id, actor_label, action, params, state, total, done, request_id, created_at, started_at, finished_at)
  SELECT id, account_id, user_id, actor_label, action, params, state, total, done, request_id, created_at, started_at, finished_at FROM dns_bulk_jobs;
INSERT INTO bulk_job_items (job_id, position, zone_id, name, state, ok, outcome, records, error, finished_at)
  SELECT job_id, position, zone_id, name, state, ok, outcome, records, error, finished_at FROM dns_bulk_job_items;
DROP TABLE dns_bulk_job_items;
DROP TABLE dns_bulk_jobs;
