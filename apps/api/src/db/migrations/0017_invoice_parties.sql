-- The Invoices page's seller and buyer search through tables of the distinct names (a few sellers, tens of
-- thousands of buyers over millions of invoices): a name is matched there, then the invoices are read by id
-- through B-trees, instead of a trigram index over every invoice whose common trigrams ("web", "bau") made a
-- rare name read hundreds of thousands of entries (docs/decisions/0074-invoice-search-at-ten-million.md).
-- One table per role: a seller search never reads the buyers' names, and a row takes its seller's lock
-- before its buyer's, so two ingestions can never wait on each other's new names in opposite orders.
-- Adds tables, columns and a trigger, and drops two indexes only this release's search stopped reading: the
-- release before keeps working beside it (its rows get their ids from the trigger).
-- `serial`, not an identity column: a backup keeps the sequences information_schema lists, which leaves identity
-- columns' out, and a restored portal would then hand a new name an id already taken.
CREATE TABLE "invoice_sellers" (
	"id" serial PRIMARY KEY,
	"name" text NOT NULL,
	CONSTRAINT "invoice_sellers_name_unique" UNIQUE ("name")
);--> statement-breakpoint
CREATE TABLE "invoice_buyers" (
	"id" serial PRIMARY KEY,
	"name" text NOT NULL,
	CONSTRAINT "invoice_buyers_name_unique" UNIQUE ("name")
);--> statement-breakpoint
-- Without a pending list: a new name is rare (an ingestion's look-up finds its party), and a search would
-- otherwise read every name still waiting in the list one by one.
CREATE INDEX "invoice_sellers_name_trgm_idx" ON "invoice_sellers" USING gin ("name" gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
CREATE INDEX "invoice_buyers_name_trgm_idx" ON "invoice_buyers" USING gin ("name" gin_trgm_ops) WITH (fastupdate = off);--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "seller_id" integer REFERENCES "invoice_sellers" ("id");--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "buyer_id" integer REFERENCES "invoice_buyers" ("id");--> statement-breakpoint
-- The database fills the ids from the names, whoever writes the row: this release, the release before while a
-- rolling update runs both (it writes only the names), the CLI, a script. A name is looked up first (the
-- common case, no write); a new one is inserted, and if another transaction inserted it meanwhile, ON CONFLICT
-- waits for that one and the second look-up sees its row: concurrent ingestions of one new name share an id.
-- Static statements, one function per table: PL/pgSQL keeps their plans, where EXECUTE of a built statement
-- parsed and planned it on every row (0.3 ms more per ingestion, measured).
CREATE FUNCTION "invoice_seller_id"(party_name text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	found_id integer;
BEGIN
	IF party_name IS NULL THEN RETURN NULL; END IF;
	SELECT "id" INTO found_id FROM "invoice_sellers" WHERE "name" = party_name;
	IF found_id IS NOT NULL THEN RETURN found_id; END IF;
	INSERT INTO "invoice_sellers" ("name") VALUES (party_name) ON CONFLICT ("name") DO NOTHING RETURNING "id" INTO found_id;
	IF found_id IS NOT NULL THEN RETURN found_id; END IF;
	SELECT "id" INTO found_id FROM "invoice_sellers" WHERE "name" = party_name;
	RETURN found_id;
END
$$;--> statement-breakpoint
CREATE FUNCTION "invoice_buyer_id"(party_name text) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
	found_id integer;
BEGIN
	IF party_name IS NULL THEN RETURN NULL; END IF;
	SELECT "id" INTO found_id FROM "invoice_buyers" WHERE "name" = party_name;
	IF found_id IS NOT NULL THEN RETURN found_id; END IF;
	INSERT INTO "invoice_buyers" ("name") VALUES (party_name) ON CONFLICT ("name") DO NOTHING RETURNING "id" INTO found_id;
	IF found_id IS NOT NULL THEN RETURN found_id; END IF;
	SELECT "id" INTO found_id FROM "invoice_buyers" WHERE "name" = party_name;
	RETURN found_id;
END
$$;--> statement-breakpoint
CREATE FUNCTION "invoices_party_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'INSERT' OR NEW."seller_name" IS DISTINCT FROM OLD."seller_name" OR NEW."seller_id" IS NULL THEN
		NEW."seller_id" := "invoice_seller_id"(NEW."seller_name");
	END IF;
	IF TG_OP = 'INSERT' OR NEW."buyer_name" IS DISTINCT FROM OLD."buyer_name" OR NEW."buyer_id" IS NULL THEN
		NEW."buyer_id" := "invoice_buyer_id"(NEW."buyer_name");
	END IF;
	RETURN NEW;
END
$$;--> statement-breakpoint
-- The invoices already stored: every distinct name once, then each invoice's ids by a join.
INSERT INTO "invoice_sellers" ("name")
	SELECT DISTINCT "seller_name" FROM "invoices" WHERE "seller_name" IS NOT NULL ORDER BY 1;--> statement-breakpoint
INSERT INTO "invoice_buyers" ("name")
	SELECT DISTINCT "buyer_name" FROM "invoices" WHERE "buyer_name" IS NOT NULL ORDER BY 1;--> statement-breakpoint
UPDATE "invoices" SET
	"seller_id" = (SELECT "id" FROM "invoice_sellers" WHERE "name" = "invoices"."seller_name"),
	"buyer_id" = (SELECT "id" FROM "invoice_buyers" WHERE "name" = "invoices"."buyer_name")
WHERE "seller_name" IS NOT NULL OR "buyer_name" IS NOT NULL;--> statement-breakpoint
CREATE TRIGGER "invoices_party_ids" BEFORE INSERT OR UPDATE OF "seller_name", "buyer_name", "seller_id", "buyer_id"
	ON "invoices" FOR EACH ROW EXECUTE FUNCTION "invoices_party_ids"();--> statement-breakpoint
-- The matches of a name by id: the bounded count reads them from here, and a page of few matches sorts them.
-- A page of many walks its order's index instead (0011), so these need no order columns; a key repeated on
-- many invoices is stored once per leaf page (deduplication): 7 MB for a million invoices, not 47 MB.
CREATE INDEX "invoices_seller_id_idx" ON "invoices" USING btree ("seller_id");--> statement-breakpoint
CREATE INDEX "invoices_buyer_id_idx" ON "invoices" USING btree ("buyer_id");--> statement-breakpoint
-- No longer read: the names are matched in the parties' tables. Each cost ingestion a GIN entry per trigram.
DROP INDEX "invoices_seller_name_trgm_idx";--> statement-breakpoint
DROP INDEX "invoices_buyer_name_trgm_idx";
