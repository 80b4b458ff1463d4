-- The outbox no longer notifies at commit (issue 20, decision 021). A transaction that sends a
-- NOTIFY takes one lock for the whole cluster from just before its commit until the commit is on
-- disk, so every change that wrote a webhook event committed one after another: 400 events a
-- second on the 2-core VM (pgbench, 16 clients), 4,000 without the trigger. The worker's sender
-- looks at the outbox five times a second instead (an empty partial index when nothing waits).
DROP TRIGGER webhook_events_notify ON webhook_events;
DROP FUNCTION notify_webhook_event();
