-- IF NOT EXISTS, and a journal `when` above 0004's: it first shipped with a smaller `when`, and drizzle applies
-- only migrations whose `when` is above the last one applied, so a database migrated to 0004 before it
-- existed never got it. Databases that did get it apply it again as a no-op.
CREATE INDEX IF NOT EXISTS "users_created_at_idx" ON "users" USING btree ("created_at","email");
