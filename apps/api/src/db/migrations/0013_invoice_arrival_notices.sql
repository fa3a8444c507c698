-- "Tell me when this parcel's invoice arrives": one row per person and parcel code until its mail is sent,
-- it expires or the person cancels it. Removed with the person's allowlist row. Only adds a table.
CREATE TABLE "invoice_arrival_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_email" text NOT NULL,
	"parcel_code" text NOT NULL,
	"link" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"arrived_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"leased_until" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "invoice_arrival_notices" ADD CONSTRAINT "invoice_arrival_notices_user_email_users_email_fk" FOREIGN KEY ("user_email") REFERENCES "public"."users"("email") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_arrival_notices_user_parcel_idx" ON "invoice_arrival_notices" USING btree ("user_email","parcel_code");--> statement-breakpoint
CREATE INDEX "invoice_arrival_notices_parcel_code_idx" ON "invoice_arrival_notices" USING btree ("parcel_code");--> statement-breakpoint
CREATE INDEX "invoice_arrival_notices_due_idx" ON "invoice_arrival_notices" USING btree ("next_attempt_at") WHERE "invoice_arrival_notices"."arrived_at" is not null;--> statement-breakpoint
CREATE INDEX "invoice_arrival_notices_expires_at_idx" ON "invoice_arrival_notices" USING btree ("expires_at");
