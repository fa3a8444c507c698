-- Every change to the allowlist is announced on commit, so each API instance drops the cached row at once.
-- Written by hand: drizzle-kit does not model functions or triggers. The payload is the e-mail; '' means all.
CREATE OR REPLACE FUNCTION notify_allowlist_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('allowlist_changed', '');
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('allowlist_changed', OLD.email);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('allowlist_changed', NEW.email);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_allowlist_changed AFTER INSERT OR UPDATE OR DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION notify_allowlist_changed();
--> statement-breakpoint
CREATE TRIGGER users_allowlist_truncated AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION notify_allowlist_changed();
