-- Search (docs/decisions/009-search.md). pg_trgm ships with PostgreSQL and with PGlite (loaded in db/client.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
-- unaccent is not in PGlite, and is only STABLE: this is our own IMMUTABLE equivalent (lower case,
-- decomposed, combining marks dropped, plus the few Latin letters that do not decompose), usable in a
-- generated column. The server normalises query words through this same function.
CREATE OR REPLACE FUNCTION search_normalize(value text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT translate(regexp_replace(normalize(lower(value), NFD), '[\u0300-\u036f]', '', 'g'), 'øłđħıæœß', 'oldhiaos') $$;--> statement-breakpoint
CREATE TABLE "search_terms" (
	"term" text PRIMARY KEY NOT NULL
);
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_doc" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, search_normalize(name)), 'A') || setweight(to_tsvector('simple'::regconfig, search_normalize(brandname || ' ' || category)), 'B') || setweight(to_tsvector('simple'::regconfig, search_normalize(coalesce(description, ''))), 'C')) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "search_terms_trgm_idx" ON "search_terms" USING gist ("term" gist_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_search_doc_idx" ON "products" USING gin ("search_doc");--> statement-breakpoint
CREATE INDEX "products_price_asc_seq_idx" ON "products" USING btree ("price_cents" ASC NULLS LAST,"seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "products_price_desc_seq_idx" ON "products" USING btree ("price_cents" DESC NULLS LAST,"seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "products_brand_seq_idx" ON "products" USING btree ("brandname","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "products_facets_idx" ON "products" USING btree ("category","brandname","price_cents","minquantity","mainquantity");--> statement-breakpoint
-- search_terms follows the products' words: inserts in one statement-level pass (bulk loads), updates
-- only when a searched field changed (stock updates on every purchase never touch it).
CREATE OR REPLACE FUNCTION search_terms_from_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_terms (term)
    SELECT DISTINCT w.lexeme FROM inserted_products p, unnest(p.search_doc) w
     WHERE length(w.lexeme) BETWEEN 3 AND 40 AND w.lexeme ~ '[[:alpha:]]'
     ORDER BY 1
  ON CONFLICT (term) DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_terms_from_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO search_terms (term)
    SELECT DISTINCT w.lexeme FROM unnest(NEW.search_doc) w
     WHERE length(w.lexeme) BETWEEN 3 AND 40 AND w.lexeme ~ '[[:alpha:]]'
     ORDER BY 1
  ON CONFLICT (term) DO NOTHING;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER products_search_terms_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS inserted_products FOR EACH STATEMENT EXECUTE FUNCTION search_terms_from_inserted();--> statement-breakpoint
CREATE TRIGGER products_search_terms_update AFTER UPDATE OF name, brandname, category, description ON products
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.brandname IS DISTINCT FROM NEW.brandname
                     OR OLD.category IS DISTINCT FROM NEW.category OR OLD.description IS DISTINCT FROM NEW.description)
  EXECUTE FUNCTION search_terms_from_updated();--> statement-breakpoint
INSERT INTO search_terms (term)
  SELECT DISTINCT w.lexeme FROM products p, unnest(p.search_doc) w
   WHERE length(w.lexeme) BETWEEN 3 AND 40 AND w.lexeme ~ '[[:alpha:]]'
ON CONFLICT (term) DO NOTHING;