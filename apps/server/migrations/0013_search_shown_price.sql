DROP INDEX "products_price_asc_seq_idx";--> statement-breakpoint
DROP INDEX "products_price_desc_seq_idx";--> statement-breakpoint
DROP INDEX "products_facets_idx";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "shown_price_cents" integer GENERATED ALWAYS AS ((price_cents::bigint * (100 - discount) + 50) / 100) STORED;--> statement-breakpoint
CREATE INDEX "products_shown_price_asc_seq_idx" ON "products" USING btree ("shown_price_cents" ASC NULLS LAST,"seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "products_shown_price_desc_seq_idx" ON "products" USING btree ("shown_price_cents" DESC NULLS LAST,"seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "products_facets_idx" ON "products" USING btree ("category","brandname","shown_price_cents","minquantity","mainquantity");--> statement-breakpoint
-- The facet cells hold the shown price (discount applied) in place of the list price, so a price band
-- counts what the page then lists. search_catalog_change is 0007's with shown_price_cents; a generated
-- column is computed before AFTER triggers run, so NEW carries it.
CREATE OR REPLACE FUNCTION search_catalog_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('bulkcart.search_catalog_bumped', true) IS DISTINCT FROM 'on' THEN
    UPDATE search_catalog_version SET version = version + 1 WHERE id = 1;
    PERFORM set_config('bulkcart.search_catalog_bumped', 'on', true);
  END IF;
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM search_facet_cells;
    RETURN NULL;
  END IF;
  -- A change of name, description or rating moves nothing.
  IF TG_OP = 'UPDATE' AND (OLD.category, OLD.brandname, OLD.minquantity, OLD.mainquantity >= OLD.minquantity, OLD.shown_price_cents)
                          IS NOT DISTINCT FROM (NEW.category, NEW.brandname, NEW.minquantity, NEW.mainquantity >= NEW.minquantity, NEW.shown_price_cents) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM search_facet_cell_remove(OLD.category, OLD.brandname, OLD.minquantity, OLD.mainquantity >= OLD.minquantity, OLD.shown_price_cents);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM search_facet_cell_add(NEW.category, NEW.brandname, NEW.minquantity, NEW.mainquantity >= NEW.minquantity, NEW.shown_price_cents);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER products_search_catalog_update ON products;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_search_catalog_update AFTER UPDATE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.brandname IS DISTINCT FROM NEW.brandname
        OR OLD.category IS DISTINCT FROM NEW.category OR OLD.description IS DISTINCT FROM NEW.description
        OR OLD.shown_price_cents IS DISTINCT FROM NEW.shown_price_cents OR OLD.rating IS DISTINCT FROM NEW.rating
        OR OLD.minquantity IS DISTINCT FROM NEW.minquantity OR OLD.seq IS DISTINCT FROM NEW.seq
        OR (OLD.mainquantity >= OLD.minquantity) IS DISTINCT FROM (NEW.mainquantity >= NEW.minquantity))
  EXECUTE FUNCTION search_catalog_change();--> statement-breakpoint
DELETE FROM search_facet_cells;--> statement-breakpoint
INSERT INTO search_facet_cells (category, brandname, minquantity, in_stock, prices, unpriced)
  SELECT category, brandname, minquantity, mainquantity >= minquantity,
         coalesce(array_agg(shown_price_cents ORDER BY shown_price_cents) FILTER (WHERE shown_price_cents IS NOT NULL), '{}'),
         count(*) FILTER (WHERE shown_price_cents IS NULL)
    FROM products
   GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
UPDATE search_catalog_version SET version = version + 1 WHERE id = 1;
