-- Every server process keeps the bearer tokens it has verified (decision 011). A change to a
-- token or to its user — revoked, expired early, deleted; user disabled, roles changed, deleted —
-- tells every process at commit, whichever code or person made it: the payload is the user's id
-- (the column named by the trigger's argument).
CREATE FUNCTION notify_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('auth_changed', to_jsonb(OLD) ->> TG_ARGV[0]);
  RETURN NULL;
END
$$;

CREATE TRIGGER auth_tokens_notify_change AFTER UPDATE OR DELETE ON auth_tokens FOR EACH ROW EXECUTE FUNCTION notify_auth_change('user_id');
CREATE TRIGGER users_notify_change AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION notify_auth_change('id');
