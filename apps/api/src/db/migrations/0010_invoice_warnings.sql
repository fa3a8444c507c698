-- The change guard's warnings: raised when an invoice version is stored, kept until an administrator other
-- than that version's uploader acknowledges them. Only adds a table, so the release before keeps working.
CREATE TABLE "invoice_warnings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"parcel_code" text NOT NULL,
	"version_id" bigint NOT NULL,
	"kind" text NOT NULL,
	"detail" text NOT NULL,
	"raised_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raised_by" text NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" text
);--> statement-breakpoint
ALTER TABLE "invoice_warnings" ADD CONSTRAINT "invoice_warnings_version_id_invoice_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."invoice_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_warnings_pending_idx" ON "invoice_warnings" USING btree ("parcel_code","id") WHERE "invoice_warnings"."acknowledged_at" is null;
