-- What each person opened last (their "Recently opened" list): at most a few dozen rows a person, their own
-- address and parcel codes only. Removed with the person's allowlist row. Only adds a table.
CREATE TABLE "invoice_opens" (
	"user_email" text NOT NULL,
	"parcel_code" text NOT NULL,
	"opened_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_opens_user_email_parcel_code_pk" PRIMARY KEY("user_email","parcel_code")
);
--> statement-breakpoint
ALTER TABLE "invoice_opens" ADD CONSTRAINT "invoice_opens_user_email_users_email_fk" FOREIGN KEY ("user_email") REFERENCES "public"."users"("email") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoice_opens_user_email_opened_at_idx" ON "invoice_opens" USING btree ("user_email","opened_at");
