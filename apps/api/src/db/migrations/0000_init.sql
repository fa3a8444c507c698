CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor" text,
	"action" text NOT NULL,
	"target" text,
	"outcome" text NOT NULL,
	"detail" text
);
--> statement-breakpoint
CREATE TABLE "invoice_versions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"parcel_code" text NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uploaded_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"parcel_code" text PRIMARY KEY NOT NULL,
	"sha256" text NOT NULL,
	"size" integer NOT NULL,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"uploaded_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"email" text PRIMARY KEY NOT NULL,
	"admin" boolean DEFAULT false NOT NULL,
	"activated" boolean DEFAULT false NOT NULL,
	"registered" boolean DEFAULT false NOT NULL,
	"firebase_uid" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text
);
--> statement-breakpoint
CREATE INDEX "invoice_versions_parcel_code_idx" ON "invoice_versions" USING btree ("parcel_code","id");--> statement-breakpoint
CREATE INDEX "users_email_pattern_idx" ON "users" USING btree ("email" text_pattern_ops);