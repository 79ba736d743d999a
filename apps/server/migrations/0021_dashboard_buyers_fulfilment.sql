CREATE TABLE "seller_buyer_months" (
	"seller_id" text NOT NULL,
	"month" date NOT NULL,
	"buyer_id" text NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "seller_buyer_months_seller_id_month_buyer_id_pk" PRIMARY KEY("seller_id","month","buyer_id")
);
--> statement-breakpoint
CREATE TABLE "seller_fulfilment_months" (
	"seller_id" text NOT NULL,
	"month" date NOT NULL,
	"measure" text NOT NULL,
	"hours" integer NOT NULL,
	"orders" integer NOT NULL,
	CONSTRAINT "seller_fulfilment_months_seller_id_month_measure_hours_pk" PRIMARY KEY("seller_id","month","measure","hours")
);
--> statement-breakpoint
ALTER TABLE "seller_buyer_months" ADD CONSTRAINT "seller_buyer_months_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_buyer_months" ADD CONSTRAINT "seller_buyer_months_buyer_id_user_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_fulfilment_months" ADD CONSTRAINT "seller_fulfilment_months_seller_id_user_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "seller_buyer_months_buyer_seller_month_idx" ON "seller_buyer_months" USING btree ("buyer_id","seller_id","month");--> statement-breakpoint
CREATE INDEX "orders_seller_accept_hours_idx" ON "orders" USING btree ("seller_id",(floor(date_part('epoch', "accepted_at" - "created_at") / 3600)::integer),"created_at","accepted_at") WHERE "orders"."accepted_at" IS NOT NULL AND "orders"."seller_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_seller_ship_hours_idx" ON "orders" USING btree ("seller_id",(floor(date_part('epoch', "shipped_at" - "accepted_at") / 3600)::integer),"created_at","accepted_at","shipped_at") WHERE "orders"."shipped_at" IS NOT NULL AND "orders"."accepted_at" IS NOT NULL AND "orders"."seller_id" IS NOT NULL;--> statement-breakpoint
-- Distinct buyers by month (decision 019), kept like seller_sales_days: an order counts for its buyer
-- in the UTC month it was placed while it is neither cancelled nor declined; a row whose count reaches
-- zero is deleted, so the primary key alone lists who bought.
CREATE FUNCTION "seller_buyer_months_from_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  remaining integer;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.seller_id IS NOT NULL AND OLD.status NOT IN ('cancelled', 'declined') THEN
    UPDATE seller_buyer_months m SET orders = m.orders - 1
     WHERE m.seller_id = OLD.seller_id AND m.month = date_trunc('month', OLD.created_at AT TIME ZONE 'UTC')::date AND m.buyer_id = OLD.buyer_id
    RETURNING m.orders INTO remaining;
    IF remaining <= 0 THEN
      DELETE FROM seller_buyer_months m
       WHERE m.seller_id = OLD.seller_id AND m.month = date_trunc('month', OLD.created_at AT TIME ZONE 'UTC')::date AND m.buyer_id = OLD.buyer_id;
    END IF;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  IF NEW.seller_id IS NOT NULL AND NEW.status NOT IN ('cancelled', 'declined') THEN
    INSERT INTO seller_buyer_months AS m (seller_id, month, buyer_id, orders)
    VALUES (NEW.seller_id, date_trunc('month', NEW.created_at AT TIME ZONE 'UTC')::date, NEW.buyer_id, 1)
    ON CONFLICT (seller_id, month, buyer_id) DO UPDATE SET orders = m.orders + 1;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- What an order adds to seller_fulfilment_months: one mark per measure it has.
CREATE FUNCTION "seller_fulfilment_marks"(placed timestamptz, accepted timestamptz, shipped timestamptz, ship_by date, status text, reason text)
RETURNS TABLE (measure text, hours integer) LANGUAGE sql IMMUTABLE AS $$
  SELECT 'accept', floor(date_part('epoch', accepted - placed) / 3600)::integer WHERE accepted IS NOT NULL
  UNION ALL SELECT 'ship', floor(date_part('epoch', shipped - accepted) / 3600)::integer WHERE shipped IS NOT NULL AND accepted IS NOT NULL
  UNION ALL SELECT 'shipped', 0 WHERE shipped IS NOT NULL
  UNION ALL SELECT 'late', 0 WHERE (shipped AT TIME ZONE 'UTC')::date > ship_by
  UNION ALL SELECT 'expired', 0 WHERE status = 'cancelled' AND reason = 'Not accepted in time'
$$;--> statement-breakpoint
-- The old row's marks come off, the new row's go on (in key order, so two writers lock rows in the
-- same order); rows at zero are deleted.
CREATE FUNCTION "seller_fulfilment_months_from_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.seller_id IS NOT NULL THEN
    UPDATE seller_fulfilment_months f SET orders = f.orders - 1
      FROM seller_fulfilment_marks(OLD.created_at, OLD.accepted_at, OLD.shipped_at, OLD.ship_by, OLD.status, OLD.reason) m
     WHERE f.seller_id = OLD.seller_id AND f.month = date_trunc('month', OLD.created_at AT TIME ZONE 'UTC')::date
       AND f.measure = m.measure AND f.hours = m.hours;
    DELETE FROM seller_fulfilment_months f
     WHERE f.seller_id = OLD.seller_id AND f.month = date_trunc('month', OLD.created_at AT TIME ZONE 'UTC')::date AND f.orders <= 0;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RETURN OLD;
  END IF;
  IF NEW.seller_id IS NOT NULL THEN
    INSERT INTO seller_fulfilment_months AS f (seller_id, month, measure, hours, orders)
    SELECT NEW.seller_id, date_trunc('month', NEW.created_at AT TIME ZONE 'UTC')::date, m.measure, m.hours, 1
      FROM seller_fulfilment_marks(NEW.created_at, NEW.accepted_at, NEW.shipped_at, NEW.ship_by, NEW.status, NEW.reason) m
     ORDER BY m.measure, m.hours
    ON CONFLICT (seller_id, month, measure, hours) DO UPDATE SET orders = f.orders + 1;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Buy Now and the checkout insert placed orders: the buyers' trigger adds one row or one count; the
-- fulfilment trigger does not run (a placed order has no mark).
CREATE TRIGGER "orders_buyer_months_insert" AFTER INSERT ON "orders"
  FOR EACH ROW EXECUTE FUNCTION "seller_buyer_months_from_orders"();--> statement-breakpoint
CREATE TRIGGER "orders_fulfilment_months_insert" AFTER INSERT ON "orders"
  FOR EACH ROW WHEN (NEW.seller_id IS NOT NULL AND (NEW.accepted_at IS NOT NULL OR NEW.shipped_at IS NOT NULL OR NEW.status = 'cancelled'))
  EXECUTE FUNCTION "seller_fulfilment_months_from_orders"();--> statement-breakpoint
-- At commit, as orders_sales_days_update and for the same reason (a cancel locks the order, then its
-- products, then the rollups, in the order Buy Now takes them).
CREATE CONSTRAINT TRIGGER "orders_buyer_months_update" AFTER UPDATE OF "status", "created_at", "seller_id", "buyer_id" ON "orders"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (
    (OLD.status NOT IN ('cancelled', 'declined')) IS DISTINCT FROM (NEW.status NOT IN ('cancelled', 'declined'))
    OR date_trunc('month', OLD.created_at AT TIME ZONE 'UTC') IS DISTINCT FROM date_trunc('month', NEW.created_at AT TIME ZONE 'UTC')
    OR OLD.seller_id IS DISTINCT FROM NEW.seller_id
    OR OLD.buyer_id IS DISTINCT FROM NEW.buyer_id
  ) EXECUTE FUNCTION "seller_buyer_months_from_orders"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "orders_fulfilment_months_update" AFTER UPDATE OF "status", "reason", "created_at", "seller_id", "accepted_at", "shipped_at", "ship_by" ON "orders"
  DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (
    OLD.status IS DISTINCT FROM NEW.status OR OLD.reason IS DISTINCT FROM NEW.reason OR OLD.created_at IS DISTINCT FROM NEW.created_at
    OR OLD.seller_id IS DISTINCT FROM NEW.seller_id OR OLD.accepted_at IS DISTINCT FROM NEW.accepted_at
    OR OLD.shipped_at IS DISTINCT FROM NEW.shipped_at OR OLD.ship_by IS DISTINCT FROM NEW.ship_by
  ) EXECUTE FUNCTION "seller_fulfilment_months_from_orders"();--> statement-breakpoint
CREATE TRIGGER "orders_buyer_months_delete" BEFORE DELETE ON "orders"
  FOR EACH ROW EXECUTE FUNCTION "seller_buyer_months_from_orders"();--> statement-breakpoint
CREATE TRIGGER "orders_fulfilment_months_delete" BEFORE DELETE ON "orders"
  FOR EACH ROW WHEN (OLD.seller_id IS NOT NULL) EXECUTE FUNCTION "seller_fulfilment_months_from_orders"();--> statement-breakpoint
-- The orders placed before this migration, after the triggers exist (as in 0019).
INSERT INTO "seller_buyer_months" ("seller_id", "month", "buyer_id", "orders")
SELECT "seller_id", date_trunc('month', "created_at" AT TIME ZONE 'UTC')::date, "buyer_id", count(*)
  FROM "orders" WHERE "seller_id" IS NOT NULL AND "status" NOT IN ('cancelled', 'declined')
 GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO "seller_fulfilment_months" ("seller_id", "month", "measure", "hours", "orders")
SELECT o."seller_id", date_trunc('month', o."created_at" AT TIME ZONE 'UTC')::date, m."measure", m."hours", count(*)
  FROM "orders" o, "seller_fulfilment_marks"(o."created_at", o."accepted_at", o."shipped_at", o."ship_by", o."status", o."reason") m
 WHERE o."seller_id" IS NOT NULL
 GROUP BY 1, 2, 3, 4;
