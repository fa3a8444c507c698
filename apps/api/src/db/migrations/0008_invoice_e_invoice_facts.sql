-- What ingestion reads from an e-invoice, kept with each version and copied onto the current one.
-- xml_sha256 and rendering_sha256 name blobs in the invoice store, like sha256: backups copy them too.
ALTER TABLE "invoice_versions" ADD COLUMN "format" text DEFAULT 'pdf' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_versions" ADD COLUMN "facts" jsonb;--> statement-breakpoint
ALTER TABLE "invoice_versions" ADD COLUMN "xml_sha256" text;--> statement-breakpoint
ALTER TABLE "invoice_versions" ADD COLUMN "xml_size" integer;--> statement-breakpoint
ALTER TABLE "invoice_versions" ADD COLUMN "rendering_sha256" text;--> statement-breakpoint
ALTER TABLE "invoice_versions" ADD COLUMN "rendering_size" integer;--> statement-breakpoint
ALTER TABLE "invoice_versions" ADD COLUMN "bank_details_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoice_versions" ADD COLUMN "amount_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "format" text DEFAULT 'pdf' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "facts" jsonb;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "xml_sha256" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "xml_size" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "rendering_sha256" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "rendering_size" integer;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "bank_details_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "amount_changed_at" timestamp with time zone;
