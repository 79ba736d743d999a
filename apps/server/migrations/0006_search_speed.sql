-- Search speed (docs/decisions/009-search.md, "Speed"). One row whose version changes, in the same
-- transaction, with every product change that can change a search answer's choice of products, their
-- order or the facets: a new or deleted product, a change of a searched text, price, rating or MOQ,
-- or stock crossing the MOQ ("In stock"). Stock changes that leave a product on the same side of its
-- MOQ (most purchases) do not touch it. Servers cache search answers under the version they read,
-- so a cache in any process is stale at once when another process commits a change.
CREATE TABLE "search_catalog_version" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "search_catalog_version_single_row" CHECK ("search_catalog_version"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "search_catalog_version" ("id", "version") VALUES (1, 0);--> statement-breakpoint
-- At most one bump per transaction (a 20,000-row insert bumps once), and only at commit: the version
-- row is the last lock a writer takes, so concurrent purchases never deadlock on it and hold it only
-- for their commit.
CREATE OR REPLACE FUNCTION search_catalog_bump() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('bulkcart.search_catalog_bumped', true) IS DISTINCT FROM 'on' THEN
    UPDATE search_catalog_version SET version = version + 1 WHERE id = 1;
    PERFORM set_config('bulkcart.search_catalog_bumped', 'on', true);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_search_catalog_insert_delete AFTER INSERT OR DELETE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION search_catalog_bump();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER products_search_catalog_update AFTER UPDATE ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.name IS DISTINCT FROM NEW.name OR OLD.brandname IS DISTINCT FROM NEW.brandname
        OR OLD.category IS DISTINCT FROM NEW.category OR OLD.description IS DISTINCT FROM NEW.description
        OR OLD.price_cents IS DISTINCT FROM NEW.price_cents OR OLD.rating IS DISTINCT FROM NEW.rating
        OR OLD.minquantity IS DISTINCT FROM NEW.minquantity OR OLD.seq IS DISTINCT FROM NEW.seq
        OR (OLD.mainquantity >= OLD.minquantity) IS DISTINCT FROM (NEW.mainquantity >= NEW.minquantity))
  EXECUTE FUNCTION search_catalog_bump();--> statement-breakpoint
CREATE TRIGGER products_search_catalog_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION search_catalog_bump();
