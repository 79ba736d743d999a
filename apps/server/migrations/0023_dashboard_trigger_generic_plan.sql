-- seller_sales_days_from_orders (0019) as before, but a new order's row no longer shares one INSERT
-- with the update path: the units were `CASE WHEN TG_OP = 'UPDATE' THEN (SELECT sum(...)) ELSE 0 END`,
-- which a plan built for this call folds to 0 while a reusable plan must keep the subquery. PL/pgSQL
-- then judged every reusable plan dearer and planned that INSERT again on each order (pg_stat_statements:
-- 43 µs of planning per order at 64 buyers). Each path now has its own statement; behaviour is unchanged.
CREATE OR REPLACE FUNCTION "seller_sales_days_from_orders"() RETURNS trigger LANGUAGE plpgsql AS $$
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
    IF TG_OP = 'INSERT' THEN
      -- A new order's lines add their units through their own trigger.
      INSERT INTO seller_sales_days AS d (seller_id, day, shard, net_cents, orders, units)
      VALUES (NEW.seller_id, (NEW.created_at AT TIME ZONE 'UTC')::date, hashtext(NEW.id::text) & 7, NEW.total_cents, 1, 0)
      ON CONFLICT (seller_id, day, shard) DO UPDATE
         SET net_cents = d.net_cents + excluded.net_cents, orders = d.orders + excluded.orders;
    ELSE
      INSERT INTO seller_sales_days AS d (seller_id, day, shard, net_cents, orders, units)
      VALUES (NEW.seller_id, (NEW.created_at AT TIME ZONE 'UTC')::date, hashtext(NEW.id::text) & 7, NEW.total_cents, 1,
              coalesce((SELECT sum(l.quantity) FROM order_lines l WHERE l.order_id = NEW.id), 0))
      ON CONFLICT (seller_id, day, shard) DO UPDATE
         SET net_cents = d.net_cents + excluded.net_cents, orders = d.orders + excluded.orders, units = d.units + excluded.units;
      INSERT INTO seller_product_sales_days AS p (seller_id, day, product_id, net_cents, units)
      SELECT NEW.seller_id, (NEW.created_at AT TIME ZONE 'UTC')::date, l.product_id, sum(l.line_total_cents), sum(l.quantity)
        FROM order_lines l WHERE l.order_id = NEW.id AND l.product_id IS NOT NULL GROUP BY l.product_id ORDER BY l.product_id
      ON CONFLICT (seller_id, day, product_id) DO UPDATE SET net_cents = p.net_cents + excluded.net_cents, units = p.units + excluded.units;
    END IF;
  END IF;
  RETURN NULL;
END
$$;
