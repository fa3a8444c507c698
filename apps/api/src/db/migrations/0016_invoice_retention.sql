-- The invoice retention (INVOICE_RETENTION_YEARS): below it no invoice version can be deleted, whoever asks
-- and by whatever path (a route, the CLI, a script, psql as the portal's role). The server writes the setting
-- at start; the triggers read it. Only adds a table and triggers, so the release before keeps working.
CREATE TABLE "invoice_retention" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL CHECK ("id" = 1),
	"years" integer CHECK ("years" IS NULL OR "years" > 0),
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
INSERT INTO "invoice_retention" ("id", "years") VALUES (1, NULL);--> statement-breakpoint
CREATE FUNCTION "invoice_retention_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	kept_years integer;
	changed boolean;
BEGIN
	SELECT "years" INTO kept_years FROM "invoice_retention" WHERE "id" = 1;
	IF kept_years IS NULL THEN
		IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
		RETURN NEW;
	END IF;
	IF TG_OP = 'TRUNCATE' THEN
		RAISE EXCEPTION 'invoice retention: % cannot be emptied while INVOICE_RETENTION_YEARS is %', TG_TABLE_NAME, kept_years
			USING ERRCODE = 'P0R01';
	END IF;
	IF TG_OP = 'UPDATE' THEN
		-- A version is a record: its bytes and when it arrived never change (its facts and markers may).
		changed := (NEW."sha256", NEW."xml_sha256", NEW."rendering_sha256", NEW."uploaded_at", NEW."parcel_code")
			IS DISTINCT FROM (OLD."sha256", OLD."xml_sha256", OLD."rendering_sha256", OLD."uploaded_at", OLD."parcel_code");
		IF NOT changed THEN RETURN NEW; END IF;
	END IF;
	IF OLD."uploaded_at" > now() - make_interval(years => kept_years) THEN
		RAISE EXCEPTION 'invoice retention: the invoice % (version of %) is kept until % (INVOICE_RETENTION_YEARS is %)',
			OLD."parcel_code", OLD."uploaded_at", OLD."uploaded_at" + make_interval(years => kept_years), kept_years
			USING ERRCODE = 'P0R01';
	END IF;
	IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
	RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "invoice_versions_retention" BEFORE DELETE OR UPDATE ON "invoice_versions"
	FOR EACH ROW EXECUTE FUNCTION "invoice_retention_guard"();--> statement-breakpoint
CREATE TRIGGER "invoices_retention" BEFORE DELETE ON "invoices"
	FOR EACH ROW EXECUTE FUNCTION "invoice_retention_guard"();--> statement-breakpoint
CREATE TRIGGER "invoice_versions_retention_truncate" BEFORE TRUNCATE ON "invoice_versions"
	FOR EACH STATEMENT EXECUTE FUNCTION "invoice_retention_guard"();--> statement-breakpoint
CREATE TRIGGER "invoices_retention_truncate" BEFORE TRUNCATE ON "invoices"
	FOR EACH STATEMENT EXECUTE FUNCTION "invoice_retention_guard"();
