-- Facet counts for searches without words (docs/decisions/009-search.md, "Speed"): the catalog counted
-- per category, brand, MOQ and "in stock", each cell holding its products' prices sorted (a price band
-- is two binary searches) and how many have no price. Kept by the catalog-version triggers of 0006, at
-- commit: they take the version row first, so cells are only ever written by the one transaction that
-- holds it and two writers never lock cells in opposite orders.
CREATE TABLE "search_facet_cells" (
	"category" text NOT NULL,
	"brandname" text NOT NULL,
	"minquantity" integer NOT NULL,
	"in_stock" boolean NOT NULL,
	"prices" integer[] DEFAULT '{}'::integer[] NOT NULL,
	"unpriced" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "search_facet_cells_category_brandname_minquantity_in_stock_pk" PRIMARY KEY("category","brandname","minquantity","in_stock")
);--> statement-breakpoint
-- One product's price into its cell, in order (the cell is created when it is new).
CREATE OR REPLACE FUNCTION search_facet_cell_add(p_category text, p_brandname text, p_minquantity integer, p_in_stock boolean, p_price integer)
RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_facet_cells AS c (category, brandname, minquantity, in_stock, prices, unpriced)
  VALUES (p_category, p_brandname, p_minquantity, p_in_stock,
          CASE WHEN p_price IS NULL THEN '{}'::integer[] ELSE ARRAY[p_price] END, (p_price IS NULL)::integer)
  ON CONFLICT (category, brandname, minquantity, in_stock) DO UPDATE
    SET prices = CASE WHEN p_price IS NULL THEN c.prices
                      ELSE c.prices[:width_bucket(p_price, c.prices)] || p_price || c.prices[width_bucket(p_price, c.prices) + 1:] END,
        unpriced = c.unpriced + (p_price IS NULL)::integer
$$;--> statement-breakpoint
-- One occurrence of a product's price out of its cell; an empty cell is dropped.
CREATE OR REPLACE FUNCTION search_facet_cell_remove(p_category text, p_brandname text, p_minquantity integer, p_in_stock boolean, p_price integer)
RETURNS void LANGUAGE sql AS $$
  UPDATE search_facet_cells c
     SET prices = CASE WHEN p_price IS NULL THEN c.prices
                       ELSE c.prices[:width_bucket(p_price, c.prices) - 1] || c.prices[width_bucket(p_price, c.prices) + 1:] END,
         unpriced = c.unpriced - (p_price IS NULL)::integer
   WHERE (c.category, c.brandname, c.minquantity, c.in_stock) = (p_category, p_brandname, p_minquantity, p_in_stock)
     AND (p_price IS NULL OR c.prices[width_bucket(p_price, c.prices)] = p_price);
  DELETE FROM search_facet_cells c
   WHERE (c.category, c.brandname, c.minquantity, c.in_stock) = (p_category, p_brandname, p_minquantity, p_in_stock)
     AND cardinality(c.prices) = 0 AND c.unpriced = 0;
$$;--> statement-breakpoint
-- 0006's bump, now also moving the product between cells. The version row is updated first, so its
-- lock is held before any cell's.
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
  IF TG_OP = 'UPDATE' AND (OLD.category, OLD.brandname, OLD.minquantity, OLD.mainquantity >= OLD.minquantity, OLD.price_cents)
                          IS NOT DISTINCT FROM (NEW.category, NEW.brandname, NEW.minquantity, NEW.mainquantity >= NEW.minquantity, NEW.price_cents) THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM search_facet_cell_remove(OLD.category, OLD.brandname, OLD.minquantity, OLD.mainquantity >= OLD.minquantity, OLD.price_cents);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM search_facet_cell_add(NEW.category, NEW.brandname, NEW.minquantity, NEW.mainquantity >= NEW.minquantity, NEW.price_cents);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER products_search_catalog_insert_delete ON products;--> statement-breakpoint
DROP TRIGGER products_search_catalog_update ON products;--> statement-breakpoint
DROP TRIGGER products_search_catalog_truncate ON products;--> statement-breakpoint
DROP FUNCTION search_catalog_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_search_catalog_insert_delete AFTER INSERT OR DELETE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION search_catalog_change();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_search_catalog_update AFTER UPDATE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.brandname IS DISTINCT FROM NEW.brandname
        OR OLD.category IS DISTINCT FROM NEW.category OR OLD.description IS DISTINCT FROM NEW.description
        OR OLD.price_cents IS DISTINCT FROM NEW.price_cents OR OLD.rating IS DISTINCT FROM NEW.rating
        OR OLD.minquantity IS DISTINCT FROM NEW.minquantity OR OLD.seq IS DISTINCT FROM NEW.seq
        OR (OLD.mainquantity >= OLD.minquantity) IS DISTINCT FROM (NEW.mainquantity >= NEW.minquantity))
  EXECUTE FUNCTION search_catalog_change();--> statement-breakpoint
CREATE TRIGGER products_search_catalog_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION search_catalog_change();--> statement-breakpoint
INSERT INTO search_facet_cells (category, brandname, minquantity, in_stock, prices, unpriced)
  SELECT category, brandname, minquantity, mainquantity >= minquantity,
         coalesce(array_agg(price_cents ORDER BY price_cents) FILTER (WHERE price_cents IS NOT NULL), '{}'),
         count(*) FILTER (WHERE price_cents IS NULL)
    FROM products
   GROUP BY 1, 2, 3, 4;
