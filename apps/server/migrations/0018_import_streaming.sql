-- Catalog imports stream (docs/decisions/018-catalog-import.md): the upload is stored in pieces as it
-- arrives instead of one bytea value read whole into memory.
CREATE TABLE "catalog_import_chunks" (
	"import_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalog_import_chunks_import_id_seq_pk" PRIMARY KEY("import_id","seq"),
	CONSTRAINT "catalog_import_chunks_size" CHECK (octet_length("catalog_import_chunks"."bytes") <= 52428800)
);
--> statement-breakpoint
ALTER TABLE "catalog_imports" DROP CONSTRAINT "catalog_imports_file_size";--> statement-breakpoint
ALTER TABLE "catalog_imports" ADD COLUMN "uploaded_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "catalog_import_chunks" ADD CONSTRAINT "catalog_import_chunks_import_id_catalog_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."catalog_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A job's file moves from the bytea column into its first (and only) piece; every job there was then had
-- its whole file (the upload was read before the job was written), so each counts as uploaded.
INSERT INTO "catalog_import_chunks" ("import_id", "seq", "bytes")
  SELECT "id", 0, "file" FROM "catalog_imports" WHERE "file" IS NOT NULL AND octet_length("file") > 0;--> statement-breakpoint
UPDATE "catalog_imports" SET "uploaded_at" = "created_at";--> statement-breakpoint
ALTER TABLE "catalog_imports" DROP COLUMN "file";--> statement-breakpoint
-- Facet cells kept per statement, not per row (docs/decisions/009-search.md, "Speed"): each product
-- written used to splice its price into its cell's sorted array at commit, one whole-array rewrite per
-- product, so 100,000 products created into one cell took minutes. Now statement-level triggers note
-- what each statement moved (transition tables) in search_facet_pending, and the first of the deferred
-- catalog-version triggers to fire at commit merges every note of the transaction at once: a few
-- changes are spliced in place as before, many are merged with each cell they touch in one pass. The
-- version row is still locked first, at commit, so cells are written by one transaction at a time. A
-- note never outlives its transaction: it is written and deleted by it.
CREATE TABLE "search_facet_pending" (
	"category" text NOT NULL,
	"brandname" text NOT NULL,
	"minquantity" integer NOT NULL,
	"in_stock" boolean NOT NULL,
	"price" integer,
	"delta" integer NOT NULL
);--> statement-breakpoint
CREATE OR REPLACE FUNCTION search_facet_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO search_facet_pending (category, brandname, minquantity, in_stock, price, delta)
      SELECT category, brandname, minquantity, mainquantity >= minquantity, shown_price_cents, 1 FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO search_facet_pending (category, brandname, minquantity, in_stock, price, delta)
      SELECT category, brandname, minquantity, mainquantity >= minquantity, shown_price_cents, -1 FROM old_rows;
  ELSE
    -- Only the rows whose cell or price changed; a change of name, description or rating moves nothing.
    INSERT INTO search_facet_pending (category, brandname, minquantity, in_stock, price, delta)
      SELECT m.category, m.brandname, m.minquantity, m.in_stock, m.price, m.delta
        FROM old_rows o JOIN new_rows n ON n.id = o.id
        CROSS JOIN LATERAL (VALUES
          (o.category, o.brandname, o.minquantity, o.mainquantity >= o.minquantity, o.shown_price_cents, -1),
          (n.category, n.brandname, n.minquantity, n.mainquantity >= n.minquantity, n.shown_price_cents, 1)
        ) AS m(category, brandname, minquantity, in_stock, price, delta)
       WHERE (o.category, o.brandname, o.minquantity, o.mainquantity >= o.minquantity, o.shown_price_cents)
             IS DISTINCT FROM (n.category, n.brandname, n.minquantity, n.mainquantity >= n.minquantity, n.shown_price_cents);
  END IF;
  IF FOUND THEN
    PERFORM set_config('bulkcart.search_facet_pending', 'on', true);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER products_search_facet_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_facet_note();--> statement-breakpoint
CREATE TRIGGER products_search_facet_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION search_facet_note();--> statement-breakpoint
CREATE TRIGGER products_search_facet_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION search_facet_note();--> statement-breakpoint
-- Every note of the transaction into the cells. Up to 16 notes are spliced one by one (a binary search and
-- a splice each, as 0007's functions do); more are merged with each cell they touch in one pass: its
-- prices counted, the notes added, the array rebuilt in order, whatever the number of products.
CREATE OR REPLACE FUNCTION search_facet_merge() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  notes integer;
  note record;
BEGIN
  SELECT count(*) INTO notes FROM search_facet_pending;
  IF notes = 0 THEN
    RETURN;
  ELSIF notes <= 16 THEN
    -- Netted first (a product created and deleted again moves nothing), additions before removals.
    FOR note IN SELECT category, brandname, minquantity, in_stock, price, sum(delta)::integer AS n
                  FROM search_facet_pending GROUP BY 1, 2, 3, 4, 5 HAVING sum(delta) <> 0
                 ORDER BY sum(delta) DESC, 1, 2, 3, 4, 5 LOOP
      FOR i IN 1..abs(note.n) LOOP
        IF note.n > 0 THEN
          PERFORM search_facet_cell_add(note.category, note.brandname, note.minquantity, note.in_stock, note.price);
        ELSE
          PERFORM search_facet_cell_remove(note.category, note.brandname, note.minquantity, note.in_stock, note.price);
        END IF;
      END LOOP;
    END LOOP;
  ELSE
    WITH d AS (
      SELECT category, brandname, minquantity, in_stock, price, sum(delta)::integer AS n
        FROM search_facet_pending GROUP BY 1, 2, 3, 4, 5
    ), cells AS (
      SELECT DISTINCT category, brandname, minquantity, in_stock FROM d
    ), counted AS (
      SELECT c.category, c.brandname, c.minquantity, c.in_stock, p.price, count(*)::integer AS n
        FROM search_facet_cells c JOIN cells k USING (category, brandname, minquantity, in_stock)
        CROSS JOIN LATERAL unnest(c.prices) AS p(price)
       GROUP BY 1, 2, 3, 4, 5
      UNION ALL
      SELECT category, brandname, minquantity, in_stock, price, n FROM d WHERE price IS NOT NULL
    ), priced AS (
      SELECT category, brandname, minquantity, in_stock, price, sum(n)::integer AS n
        FROM counted GROUP BY 1, 2, 3, 4, 5 HAVING sum(n) > 0
    ), arrays AS (
      SELECT category, brandname, minquantity, in_stock, array_agg(price ORDER BY price) AS prices
        FROM priced CROSS JOIN LATERAL generate_series(1, n) GROUP BY 1, 2, 3, 4
    ), unpriced AS (
      SELECT category, brandname, minquantity, in_stock, sum(n)::integer AS n FROM d WHERE price IS NULL GROUP BY 1, 2, 3, 4
    )
    INSERT INTO search_facet_cells AS c (category, brandname, minquantity, in_stock, prices, unpriced)
    SELECT k.category, k.brandname, k.minquantity, k.in_stock, coalesce(a.prices, '{}'::integer[]), coalesce(u.n, 0)
      FROM cells k
      LEFT JOIN arrays a USING (category, brandname, minquantity, in_stock)
      LEFT JOIN unpriced u USING (category, brandname, minquantity, in_stock)
    ON CONFLICT (category, brandname, minquantity, in_stock) DO UPDATE
      SET prices = EXCLUDED.prices, unpriced = c.unpriced + EXCLUDED.unpriced;
    DELETE FROM search_facet_cells c
     USING (SELECT DISTINCT category, brandname, minquantity, in_stock FROM search_facet_pending) k
     WHERE (c.category, c.brandname, c.minquantity, c.in_stock) = (k.category, k.brandname, k.minquantity, k.in_stock)
       AND cardinality(c.prices) = 0 AND c.unpriced <= 0;
  END IF;
  DELETE FROM search_facet_pending;
END $$;--> statement-breakpoint
-- 0013's version bump, now merging the transaction's notes instead of moving its own row: the first
-- trigger to fire at commit merges them all, the rest find nothing left to do.
CREATE OR REPLACE FUNCTION search_catalog_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('bulkcart.search_catalog_bumped', true) IS DISTINCT FROM 'on' THEN
    UPDATE search_catalog_version SET version = version + 1 WHERE id = 1;
    PERFORM set_config('bulkcart.search_catalog_bumped', 'on', true);
  END IF;
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM search_facet_cells;
    DELETE FROM search_facet_pending;
    PERFORM set_config('bulkcart.search_facet_pending', 'off', true);
    RETURN NULL;
  END IF;
  IF current_setting('bulkcart.search_facet_pending', true) = 'on' THEN
    PERFORM set_config('bulkcart.search_facet_pending', 'off', true);
    PERFORM search_facet_merge();
  END IF;
  RETURN NULL;
END $$;
