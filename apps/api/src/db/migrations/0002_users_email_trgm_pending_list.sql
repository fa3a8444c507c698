-- Same result as the DROP + CREATE drizzle-kit writes for this change, without rebuilding the index.
ALTER INDEX "users_email_trgm_idx" SET (gin_pending_list_limit = 256);
