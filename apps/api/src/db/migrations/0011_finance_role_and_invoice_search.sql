-- The finance role beside admin, and what the Invoices page searches: a few terms of the current invoice's
-- facts copied into columns of their own (ingestion writes them; the jsonb stays the record), with indexes
-- that keep a searched page fast at 10 million invoices (docs/decisions/0074-invoice-search-at-ten-million.md).
-- Only adds, so the release before keeps working.
ALTER TABLE "users" ADD COLUMN "finance" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "invoice_number" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "seller_name" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "buyer_name" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "issue_date" date;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "total_gross" numeric;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "currency" text;--> statement-breakpoint
-- The invoices already stored: a date or amount the facts hold in a shape that does not read as one stays null,
-- as ingestion leaves it (search-terms.ts), rather than failing the migration.
UPDATE "invoices" SET
  "invoice_number" = "facts"->>'invoiceNumber',
  "seller_name" = "facts"->>'sellerName',
  "buyer_name" = "facts"->>'buyerName',
  "currency" = "facts"->>'currency',
  "total_gross" = CASE WHEN "facts"->>'totalGross' ~ '^[+-]?[0-9]{1,15}(\.[0-9]{1,6})?$'
    THEN ("facts"->>'totalGross')::numeric END,
  "issue_date" = CASE WHEN "facts"->>'issueDate' ~ '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$'
    AND to_char(to_date("facts"->>'issueDate', 'YYYY-MM-DD'), 'YYYY-MM-DD') = "facts"->>'issueDate'
    THEN to_date("facts"->>'issueDate', 'YYYY-MM-DD') END
WHERE "facts" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "invoices_uploaded_at_idx" ON "invoices" USING btree ("uploaded_at","parcel_code");--> statement-breakpoint
-- Each order both ways with the invoices that lack the term (plain PDFs) last: one index per direction.
CREATE INDEX "invoices_issue_date_idx" ON "invoices" USING btree ("issue_date","parcel_code");--> statement-breakpoint
CREATE INDEX "invoices_issue_date_desc_idx" ON "invoices" USING btree ("issue_date" DESC NULLS LAST,"parcel_code" DESC);--> statement-breakpoint
CREATE INDEX "invoices_total_gross_idx" ON "invoices" USING btree ("total_gross","parcel_code");--> statement-breakpoint
CREATE INDEX "invoices_total_gross_desc_idx" ON "invoices" USING btree ("total_gross" DESC NULLS LAST,"parcel_code" DESC);--> statement-breakpoint
CREATE INDEX "invoices_parcel_code_prefix_idx" ON "invoices" USING btree (upper("parcel_code") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "invoices_invoice_number_prefix_idx" ON "invoices" USING btree (upper("invoice_number") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "invoices_seller_name_trgm_idx" ON "invoices" USING gin ("seller_name" gin_trgm_ops) WITH (gin_pending_list_limit = 256);--> statement-breakpoint
CREATE INDEX "invoices_buyer_name_trgm_idx" ON "invoices" USING gin ("buyer_name" gin_trgm_ops) WITH (gin_pending_list_limit = 256);--> statement-breakpoint
CREATE INDEX "invoices_bank_details_changed_idx" ON "invoices" USING btree ("uploaded_at","parcel_code") WHERE "bank_details_changed_at" IS NOT NULL;
