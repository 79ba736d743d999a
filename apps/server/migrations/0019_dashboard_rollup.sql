CREATE TABLE "seller_product_sales_days" (
	"seller_id" text NOT NULL,
	"day" date NOT NULL,
	"product_id" uuid NOT NULL,
	"net_cents" bigint NOT NULL,
	"units" bigint NOT NULL,
	CONSTRAINT "seller_product_sales_days_seller_id_day_product_id_pk" PRIMARY KEY("seller_id","day","product_id")
);
--> statement-breakpoint
CREATE TABLE "seller_sales_days" (
	"seller_id" text NOT NULL,
	"day" date NOT NULL,
	"shard" smallint NOT NULL,
	"net_cents" bigint NOT NULL,
	"orders" integer NOT NULL,
	"units" bigint NOT NULL,
	CONSTRAINT "seller_sales_days_seller_id_day_shard_pk" PRIMARY KEY("seller_id","day","shard")
);
--> statement-breakpoint
DROP INDEX "orders_seller_created_idx";--> statement-breakpoint
ALTER TABLE "seller_product_sales_days" ADD CONSTRAINT "seller_product_sales_days_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_sales_days" ADD CONSTRAINT "seller_sales_days_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_seller_created_fulfilment_idx" ON "orders" USING btree ("seller_id","created_at","status","buyer_id","accepted_at","shipped_at","ship_by");--> statement-breakpoint
-- The dashboard's rollup (decision 019) kept by the statement that changes an order: an order counts
-- while it is neither cancelled nor declined, on the business day (UTC) it was placed, in the shard its
-- id picks. An order's total and count follow the order's row; its units and per-product figures follow
-- its lines (inserted in the order's statement, or after it), and move with the order when the order
-- stops or starts counting, changes day or seller. The order's subtractions only update, so a seller's
-- deletion (which drops their rows while it nulls their orders' seller) never recreates one.
CREATE FUNCTION "seller_sales_days_from_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.seller_id IS NOT NULL AND OLD.status NOT IN ('cancelled', 'declined') THEN
    UPDATE seller_sales_days d
       SET net_cents = d.net_cents - OLD.total_cents, orders = d.orders - 1,
           units = d.units - coalesce((SELECT sum(l.quantity) FROM order_lines l WHERE l.order_id = OLD.id), 0)
     WHERE d.seller_id = OLD.seller_id AND d.day = (OLD.created_at AT TIME ZONE 'UTC')::date AND d.shard = hashtext(OLD.id::text) & 7;
    UPDATE seller_product_sales_days p
       SET net_cents = p.net_cents - l.cents, units = p.units - l.units
      FROM (SELECT product_id, sum(line_total_cents) AS cents, sum(quantity) AS units FROM order_lines
             WHERE order_id = OLD.id AND product_id IS NOT NULL GROUP BY product_id) l
     WHERE p.seller_id = OLD.seller_id AND p.day = (OLD.created_at AT TIME ZONE 'UTC')::date AND p.product_id = l.product_id;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  IF NEW.seller_id IS NOT NULL AND NEW.status NOT IN ('cancelled', 'declined') THEN
    INSERT INTO seller_sales_days AS d (seller_id, day, shard, net_cents, orders, units)
    VALUES (NEW.seller_id, (NEW.created_at AT TIME ZONE 'UTC')::date, hashtext(NEW.id::text) & 7, NEW.total_cents, 1,
            CASE WHEN TG_OP = 'UPDATE' THEN coalesce((SELECT sum(l.quantity) FROM order_lines l WHERE l.order_id = NEW.id), 0) ELSE 0 END)
    ON CONFLICT (seller_id, day, shard) DO UPDATE
       SET net_cents = d.net_cents + excluded.net_cents, orders = d.orders + excluded.orders, units = d.units + excluded.units;
    IF TG_OP = 'UPDATE' THEN
      INSERT INTO seller_product_sales_days AS p (seller_id, day, product_id, net_cents, units)
      SELECT NEW.seller_id, (NEW.created_at AT TIME ZONE 'UTC')::date, l.product_id, sum(l.line_total_cents), sum(l.quantity)
        FROM order_lines l WHERE l.order_id = NEW.id AND l.product_id IS NOT NULL GROUP BY l.product_id ORDER BY l.product_id
      ON CONFLICT (seller_id, day, product_id) DO UPDATE SET net_cents = p.net_cents + excluded.net_cents, units = p.units + excluded.units;
    END IF;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A line counts while its order does: looked up here (during the order's own deletion it is gone
-- already, and the order's trigger took its lines' figures away before). Step 1 takes the old line
-- away (update, delete), step 2 adds the new one (insert, update).
CREATE FUNCTION "seller_sales_days_from_order_lines"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  line order_lines;
  sign integer;
  placed record;
BEGIN
  FOR step IN (CASE WHEN TG_OP = 'INSERT' THEN 2 ELSE 1 END)..(CASE WHEN TG_OP = 'DELETE' THEN 1 ELSE 2 END) LOOP
    IF step = 1 THEN
      line := OLD;
      sign := -1;
    ELSE
      line := NEW;
      sign := 1;
    END IF;
    SELECT o.seller_id, (o.created_at AT TIME ZONE 'UTC')::date AS day, hashtext(o.id::text) & 7 AS shard INTO placed
      FROM orders o WHERE o.id = line.order_id AND o.seller_id IS NOT NULL AND o.status NOT IN ('cancelled', 'declined');
    CONTINUE WHEN NOT FOUND;
    INSERT INTO seller_sales_days AS d (seller_id, day, shard, net_cents, orders, units)
    VALUES (placed.seller_id, placed.day, placed.shard, 0, 0, sign * line.quantity)
    ON CONFLICT (seller_id, day, shard) DO UPDATE SET units = d.units + excluded.units;
    IF line.product_id IS NOT NULL THEN
      INSERT INTO seller_product_sales_days AS p (seller_id, day, product_id, net_cents, units)
      VALUES (placed.seller_id, placed.day, line.product_id, sign * line.line_total_cents, sign * line.quantity)
      ON CONFLICT (seller_id, day, product_id) DO UPDATE SET net_cents = p.net_cents + excluded.net_cents, units = p.units + excluded.units;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "orders_sales_days_insert" AFTER INSERT ON "orders"
  FOR EACH ROW EXECUTE FUNCTION "seller_sales_days_from_orders"();--> statement-breakpoint
-- Accepting, shipping and delivering change nothing counted: the trigger runs only when an order starts
-- or stops counting, or its day, seller or total changes. It runs at commit, after everything else the
-- transaction locks: a cancel or a decline locks the order, then its products to give the stock back,
-- and only then the rollup's rows, the order Buy Now and the checkout take them in too (product, then
-- rollup), so a cancel and a purchase of the same product never wait for each other in a circle.
CREATE CONSTRAINT TRIGGER "orders_sales_days_update" AFTER UPDATE OF "status", "created_at", "seller_id", "total_cents" ON "orders"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (
    (OLD.status NOT IN ('cancelled', 'declined')) IS DISTINCT FROM (NEW.status NOT IN ('cancelled', 'declined'))
    OR (OLD.created_at AT TIME ZONE 'UTC')::date IS DISTINCT FROM (NEW.created_at AT TIME ZONE 'UTC')::date
    OR OLD.seller_id IS DISTINCT FROM NEW.seller_id
    OR OLD.total_cents IS DISTINCT FROM NEW.total_cents
  ) EXECUTE FUNCTION "seller_sales_days_from_orders"();--> statement-breakpoint
-- Before the row goes, while its lines (deleted with it by the cascade) can still be read.
CREATE TRIGGER "orders_sales_days_delete" BEFORE DELETE ON "orders"
  FOR EACH ROW EXECUTE FUNCTION "seller_sales_days_from_orders"();--> statement-breakpoint
CREATE TRIGGER "order_lines_sales_days" AFTER INSERT OR DELETE OR UPDATE OF "order_id", "quantity", "line_total_cents" ON "order_lines"
  FOR EACH ROW EXECUTE FUNCTION "seller_sales_days_from_order_lines"();--> statement-breakpoint
-- The orders placed before this migration, after the triggers exist: creating them locked orders and
-- order_lines against writes until this migration commits, so no order is missed or counted twice.
INSERT INTO "seller_sales_days" ("seller_id", "day", "shard", "net_cents", "orders", "units")
SELECT o."seller_id", (o."created_at" AT TIME ZONE 'UTC')::date, hashtext(o."id"::text) & 7, sum(o."total_cents"), count(*), coalesce(sum(l."units"), 0)
  FROM "orders" o
  LEFT JOIN (SELECT "order_id", sum("quantity") AS "units" FROM "order_lines" GROUP BY "order_id") l ON l."order_id" = o."id"
 WHERE o."seller_id" IS NOT NULL AND o."status" NOT IN ('cancelled', 'declined')
 GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "seller_product_sales_days" ("seller_id", "day", "product_id", "net_cents", "units")
SELECT o."seller_id", (o."created_at" AT TIME ZONE 'UTC')::date, l."product_id", sum(l."line_total_cents"), sum(l."quantity")
  FROM "orders" o JOIN "order_lines" l ON l."order_id" = o."id"
 WHERE o."seller_id" IS NOT NULL AND o."status" NOT IN ('cancelled', 'declined') AND l."product_id" IS NOT NULL
 GROUP BY 1, 2, 3;
