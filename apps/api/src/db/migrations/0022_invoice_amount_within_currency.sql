-- The Invoices page orders amounts within their currency (currency A to Z, then the amount either way), so
-- that 900 NOK never stands between two euro amounts; and finds the invoices whose stored EN 16931 check
-- failed or warned. One index per way of reading a page, as migration 0011's, so a page of a wide search at
-- ten million invoices is read from an index, not sorted (docs/decisions/0121-the-month-in-sums-and-amounts-within-their-currency.md).
-- Only adds indexes: the release before keeps working beside it (its amount order keeps 0011's indexes).
-- A portal that already holds millions of invoices creates them by hand first with
-- CREATE INDEX CONCURRENTLY ... IF NOT EXISTS.
CREATE INDEX IF NOT EXISTS "invoices_currency_total_gross_idx" ON "invoices" USING btree ("currency","total_gross","parcel_code");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_currency_total_gross_desc_idx" ON "invoices" USING btree ("currency","total_gross" DESC NULLS LAST,"parcel_code" DESC);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "invoices_validation_flagged_idx" ON "invoices" USING btree ((("facts"->'validation')->>'status'),"uploaded_at","parcel_code") WHERE (("facts"->'validation')->>'status') IN ('invalid', 'warnings');
