-- When the browser holding a passkey confirmation last made a call with it: an administrator's or finance
-- user's sign-in that goes quiet for longer than PRIVILEGED_SESSION_IDLE_MINUTES ends
-- (docs/decisions/0085-finance-behind-the-admin-step-up.md). Adds a column with a default: the release before
-- keeps inserting rows without it, and its rows count as seen when they were written.
ALTER TABLE "admin_confirmations" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;
