-- The company provider's own id of the person (OIDC `sub`, SAML NameID's subject as Firebase keeps it), bound
-- to the row at its first company sign-in and required of every later one: another identity the provider
-- vouches for with the same address is refused (docs/decisions/0087). When it was bound, for the audit's
-- story and the admin's. Only adds nullable columns, so the release before keeps working (decision 0038).
ALTER TABLE "users" ADD COLUMN "sso_subject" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sso_linked_at" timestamp with time zone;
