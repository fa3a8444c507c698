-- The accounts each PDF version's pages show (or why they could not be read), so that the change guard can
-- hold a plain PDF against the plain PDF before it. Only adds a nullable column: the release before keeps
-- working beside it, and versions stored before it stay null (not compared, never a reset).
ALTER TABLE "invoice_versions" ADD COLUMN "visible_accounts" jsonb;
