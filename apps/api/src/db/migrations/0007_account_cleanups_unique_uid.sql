CREATE TABLE "account_cleanups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"firebase_uid" text,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"leased_until" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
CREATE INDEX "account_cleanups_next_attempt_at_idx" ON "account_cleanups" USING btree ("next_attempt_at");
--> statement-breakpoint
-- Two rows bound to one sign-in account would both let its holder in. Before the unique index can exist,
-- such rows are unbound (a row without a uid admits nobody) and the audit log says which and why.
INSERT INTO "audit_log" ("actor", "action", "target", "outcome", "detail")
	SELECT 'migration', 'users.unbind-shared-account', "email", 'ok',
		'shared its sign-in account (uid ' || "firebase_uid" || ') with another row; nobody signs in with it until the user is removed and added again'
	FROM "users"
	WHERE "firebase_uid" IN (
		SELECT "firebase_uid" FROM "users" WHERE "firebase_uid" IS NOT NULL GROUP BY "firebase_uid" HAVING count(*) > 1
	);
--> statement-breakpoint
UPDATE "users" SET "firebase_uid" = NULL
	WHERE "firebase_uid" IN (
		SELECT "firebase_uid" FROM "users" WHERE "firebase_uid" IS NOT NULL GROUP BY "firebase_uid" HAVING count(*) > 1
	);
--> statement-breakpoint
CREATE UNIQUE INDEX "users_firebase_uid_idx" ON "users" USING btree ("firebase_uid");
