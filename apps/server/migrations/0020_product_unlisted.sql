-- Unlisted products (docs/product/rules.md, "Unlisted products"): kept for the orders that name them,
-- absent for buyers. No product is unlisted when this runs, so the facet cells need no rebuild.
ALTER TABLE "products" ADD COLUMN "unlisted_at" timestamp with time zone;--> statement-breakpoint
-- 0018's notes, now counting only listed products: a product leaves its cell when it is unlisted (or
-- deleted while listed) and comes back when it is listed again, so the facet counts stay exact.
CREATE OR REPLACE FUNCTION search_facet_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO search_facet_pending (category, brandname, minquantity, in_stock, price, delta)
      SELECT category, brandname, minquantity, mainquantity >= minquantity, shown_price_cents, 1 FROM new_rows WHERE unlisted_at IS NULL;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO search_facet_pending (category, brandname, minquantity, in_stock, price, delta)
      SELECT category, brandname, minquantity, mainquantity >= minquantity, shown_price_cents, -1 FROM old_rows WHERE unlisted_at IS NULL;
  ELSE
    -- Only the rows whose cell, price or listing changed; a change of name, description or rating moves nothing.
    INSERT INTO search_facet_pending (category, brandname, minquantity, in_stock, price, delta)
      SELECT m.category, m.brandname, m.minquantity, m.in_stock, m.price, m.delta
        FROM old_rows o JOIN new_rows n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES
          (o.category, o.brandname, o.minquantity, o.mainquantity >= o.minquantity, o.shown_price_cents, -1, o.unlisted_at IS NULL),
          (n.category, n.brandname, n.minquantity, n.mainquantity >= n.minquantity, n.shown_price_cents, 1, n.unlisted_at IS NULL)
        ) AS m(category, brandname, minquantity, in_stock, price, delta, listed)
       WHERE m.listed
         AND (o.category, o.brandname, o.minquantity, o.mainquantity >= o.minquantity, o.shown_price_cents, o.unlisted_at IS NULL)
             IS DISTINCT FROM (n.category, n.brandname, n.minquantity, n.mainquantity >= n.minquantity, n.shown_price_cents, n.unlisted_at IS NULL);
  END IF;
  IF FOUND THEN
    PERFORM set_config('bulkcart.search_facet_pending', 'on', true);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- 0013's trigger, now also firing when a product is unlisted or listed again: it merges the notes above
-- at commit and bumps the catalog version, so no cached search answer still holds the product.
DROP TRIGGER products_search_catalog_update ON products;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_search_catalog_update AFTER UPDATE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.brandname IS DISTINCT FROM NEW.brandname
        OR OLD.category IS DISTINCT FROM NEW.category OR OLD.description IS DISTINCT FROM NEW.description
        OR OLD.shown_price_cents IS DISTINCT FROM NEW.shown_price_cents OR OLD.rating IS DISTINCT FROM NEW.rating
        OR OLD.minquantity IS DISTINCT FROM NEW.minquantity OR OLD.seq IS DISTINCT FROM NEW.seq
        OR (OLD.mainquantity >= OLD.minquantity) IS DISTINCT FROM (NEW.mainquantity >= NEW.minquantity)
        OR (OLD.unlisted_at IS NULL) IS DISTINCT FROM (NEW.unlisted_at IS NULL))
  EXECUTE FUNCTION search_catalog_change();
