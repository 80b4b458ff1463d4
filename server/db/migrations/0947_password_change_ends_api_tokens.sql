-- A password change (or reset) ends the user's API tokens as well as their sessions, as a disabled
-- user's (issue 26): whoever had the old password may have made a token with it. The trigger of
-- 0100 revoked auth_tokens only; a revoked api_tokens row notifies every process's token cache
-- (0850's trigger), so the next request with the token is refused.
CREATE OR REPLACE FUNCTION users_revoke_tokens() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status <> OLD.status AND NEW.status <> 'active'
     OR NEW.password_hash IS DISTINCT FROM OLD.password_hash THEN
    UPDATE auth_tokens SET revoked_at = now() WHERE user_id = NEW.id AND revoked_at IS NULL;
    UPDATE api_tokens SET revoked_at = now() WHERE user_id = NEW.id AND revoked_at IS NULL;
  END IF;
  RETURN NEW;
END $$;
