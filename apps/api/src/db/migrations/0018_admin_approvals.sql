-- Four eyes that are two people (docs/decisions/0091-four-eyes-that-are-two-people.md): a promotion to
-- administrator or a passkey reset waits here for a second administrator's approval, and each administrator's
-- row says who made them one, who approved it and when. Only adds a table and nullable columns, so the
-- release before keeps working beside it (decision 0038); it neither reads nor writes them.
ALTER TABLE "users" ADD COLUMN "admin_granted_by" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "admin_approved_by" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "admin_granted_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "admin_approvals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"email" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	"decision" text
);
--> statement-breakpoint
ALTER TABLE "admin_approvals" ADD CONSTRAINT "admin_approvals_email_users_email_fk" FOREIGN KEY ("email") REFERENCES "public"."users"("email") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admin_approvals_pending_idx" ON "admin_approvals" USING btree ("kind","email") WHERE "admin_approvals"."decided_at" is null;--> statement-breakpoint
CREATE INDEX "admin_approvals_expires_at_idx" ON "admin_approvals" USING btree ("expires_at");
