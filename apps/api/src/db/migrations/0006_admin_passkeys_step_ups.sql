CREATE TABLE "admin_passkeys" (
	"credential_id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"public_key" text NOT NULL,
	"counter" bigint DEFAULT 0 NOT NULL,
	"transports" text[] DEFAULT '{}'::text[] NOT NULL,
	"device_type" text NOT NULL,
	"backed_up" boolean NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "admin_step_ups" (
	"firebase_uid" text NOT NULL,
	"auth_time" timestamp with time zone NOT NULL,
	"stepped_up_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_step_ups_firebase_uid_auth_time_pk" PRIMARY KEY("firebase_uid","auth_time")
);
--> statement-breakpoint
CREATE TABLE "webauthn_challenges" (
	"challenge" text PRIMARY KEY NOT NULL,
	"firebase_uid" text NOT NULL,
	"auth_time" timestamp with time zone NOT NULL,
	"purpose" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "admin_passkeys" ADD CONSTRAINT "admin_passkeys_email_users_email_fk" FOREIGN KEY ("email") REFERENCES "public"."users"("email") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "admin_passkeys_email_idx" ON "admin_passkeys" USING btree ("email");--> statement-breakpoint
CREATE INDEX "admin_step_ups_stepped_up_at_idx" ON "admin_step_ups" USING btree ("stepped_up_at");--> statement-breakpoint
CREATE INDEX "webauthn_challenges_expires_at_idx" ON "webauthn_challenges" USING btree ("expires_at");
