-- Users the company directory provisions through SCIM (apps/api/src/scim): each row gets a stable opaque id
-- for /scim/v2/Users/<id> (an e-mail in a URL would be written to every proxy's access log), the directory's
-- own id for it (externalId), who manages it (NULL: the portal's admins; 'scim': the directory), whether
-- the directory has suspended it (active=false: the row stays, the person is refused), and when it last
-- changed (meta.lastModified, and part of its ETag). Only adds columns with defaults, so the release before
-- keeps working (decision 0038). The uuid default fills existing rows once, in this migration's rewrite.
ALTER TABLE "users" ADD COLUMN "scim_id" uuid DEFAULT gen_random_uuid() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "scim_external_id" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "managed_by" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "users_scim_id_idx" ON "users" USING btree ("scim_id");--> statement-breakpoint
CREATE INDEX "users_scim_external_id_idx" ON "users" USING btree ("scim_external_id");
