-- A bulk job survives the death of the process running it (issue 15, decision 102).
-- run_id: the run working the job now; a run that finds another run_id stops (a retry took over).
-- attempts: how often an item was started; more than one means the earlier attempt may have
-- reached the registry, so the next one reads back what the registry holds before repeating.
-- baseline: what the item's subject was before its first attempt (a renewal: the expiry it
-- renewed from), what a repeated attempt compares the registry's answer with.
ALTER TABLE bulk_jobs ADD COLUMN run_id uuid;
ALTER TABLE bulk_job_items ADD COLUMN attempts integer NOT NULL DEFAULT 0;
ALTER TABLE bulk_job_items ADD COLUMN baseline jsonb;
