-- Expand only (decision 38): admin_step_ups stays for the release before this one, which still reads it
-- during a rollout; a later release drops it.
CREATE TABLE "admin_confirmations" (
	"secret_hash" text PRIMARY KEY NOT NULL,
	"firebase_uid" text NOT NULL,
	"auth_time" timestamp with time zone NOT NULL,
	"confirmed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "admin_confirmations_firebase_uid_idx" ON "admin_confirmations" USING btree ("firebase_uid");--> statement-breakpoint
CREATE INDEX "admin_confirmations_confirmed_at_idx" ON "admin_confirmations" USING btree ("confirmed_at");--> statement-breakpoint
CREATE TABLE "admin_enrollment_codes" (
	"email" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"issued_by" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_enrollment_codes" ADD CONSTRAINT "admin_enrollment_codes_email_users_email_fk" FOREIGN KEY ("email") REFERENCES "public"."users"("email") ON DELETE cascade ON UPDATE no action;
