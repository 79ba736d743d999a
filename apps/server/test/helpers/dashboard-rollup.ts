import { expect } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/db/client.ts';
import { queryRows } from '../../src/db/rows.ts';

/** node-postgres answers bigint as text, PGlite as a number: one reading for both. */
type Figures = Record<string, number>;

async function keyed(db: Db, query: ReturnType<typeof sql>): Promise<Map<string, Figures>> {
  const rows = await queryRows<Record<string, unknown>>(db, query);
  return new Map(
    rows.map((r) => {
      const { key, ...figures } = r;
      return [String(key), Object.fromEntries(Object.entries(figures).map(([name, value]) => [name, Number(value)]))];
    }),
  );
}

/**
 * The dashboard's rollups (migrations 0019 and 0020) against the orders themselves, recomputed here:
 * per seller and UTC day the counted orders' total, count and units, and per product their cents and
 * units; per seller, UTC month and buyer the counted orders; per seller, UTC month, measure and whole
 * hour the fulfilment counts. Rows the daily rollups keep at zero (every order of the day cancelled)
 * count as absent; the monthly ones must hold no row at zero.
 */
export async function expectRollupToMatchOrders(db: Db): Promise<void> {
  const days = await keyed(
    db,
    sql`SELECT seller_id || ' ' || day AS key, sum(net_cents)::bigint AS net_cents, sum(orders)::int AS orders, sum(units)::bigint AS units
        FROM seller_sales_days GROUP BY seller_id, day HAVING sum(orders) <> 0 OR sum(units) <> 0 OR sum(net_cents) <> 0`,
  );
  const fromOrders = await keyed(
    db,
    sql`SELECT o.seller_id || ' ' || (o.created_at AT TIME ZONE 'UTC')::date AS key, sum(o.total_cents)::bigint AS net_cents, count(*)::int AS orders,
               coalesce(sum((SELECT sum(l.quantity) FROM order_lines l WHERE l.order_id = o.id)), 0)::bigint AS units
        FROM orders o WHERE o.seller_id IS NOT NULL AND o.status NOT IN ('cancelled', 'declined')
        GROUP BY o.seller_id, (o.created_at AT TIME ZONE 'UTC')::date`,
  );
  expect(days).toEqual(fromOrders);
  const products = await keyed(
    db,
    sql`SELECT seller_id || ' ' || day || ' ' || product_id AS key, net_cents::bigint AS net_cents, units::bigint AS units
        FROM seller_product_sales_days WHERE units <> 0 OR net_cents <> 0`,
  );
  const fromLines = await keyed(
    db,
    sql`SELECT o.seller_id || ' ' || (o.created_at AT TIME ZONE 'UTC')::date || ' ' || l.product_id AS key,
               sum(l.line_total_cents)::bigint AS net_cents, sum(l.quantity)::bigint AS units
        FROM orders o JOIN order_lines l ON l.order_id = o.id
        WHERE o.seller_id IS NOT NULL AND o.status NOT IN ('cancelled', 'declined') AND l.product_id IS NOT NULL
        GROUP BY 1`,
  );
  expect(products).toEqual(fromLines);
  const buyerMonths = await keyed(db, sql`SELECT seller_id || ' ' || month || ' ' || buyer_id AS key, orders FROM seller_buyer_months`);
  const buyersFromOrders = await keyed(
    db,
    sql`SELECT o.seller_id || ' ' || date_trunc('month', o.created_at AT TIME ZONE 'UTC')::date || ' ' || o.buyer_id AS key, count(*)::int AS orders
        FROM orders o WHERE o.seller_id IS NOT NULL AND o.status NOT IN ('cancelled', 'declined') GROUP BY 1`,
  );
  expect(buyerMonths).toEqual(buyersFromOrders);
  const fulfilmentMonths = await keyed(
    db,
    sql`SELECT seller_id || ' ' || month || ' ' || measure || ' ' || hours AS key, orders FROM seller_fulfilment_months`,
  );
  // Written out here rather than with seller_fulfilment_marks, so a wrong definition there shows.
  const fulfilmentFromOrders = await keyed(
    db,
    sql`SELECT o.seller_id || ' ' || date_trunc('month', o.created_at AT TIME ZONE 'UTC')::date || ' ' || m.measure || ' ' || m.hours AS key, count(*)::int AS orders
        FROM orders o CROSS JOIN LATERAL (VALUES
          ('accept', CASE WHEN o.accepted_at IS NOT NULL THEN floor(extract(epoch FROM o.accepted_at - o.created_at) / 3600) END),
          ('ship', CASE WHEN o.shipped_at IS NOT NULL AND o.accepted_at IS NOT NULL THEN floor(extract(epoch FROM o.shipped_at - o.accepted_at) / 3600) END),
          ('shipped', CASE WHEN o.shipped_at IS NOT NULL THEN 0 END),
          ('late', CASE WHEN (o.shipped_at AT TIME ZONE 'UTC')::date > o.ship_by THEN 0 END),
          ('expired', CASE WHEN o.status = 'cancelled' AND o.reason = 'Not accepted in time' THEN 0 END)
        ) m (measure, hours)
        WHERE o.seller_id IS NOT NULL AND m.hours IS NOT NULL GROUP BY 1`,
  );
  expect(fulfilmentMonths).toEqual(fulfilmentFromOrders);
}

const DAY_MS = 86_400_000;

/**
 * When a test order of the dashboard's property tests was placed: `daysBack` whole UTC days before
 * `now`'s, `at` ms into that day, never after `now` (an ISO string for SQL).
 */
export function placedAt(now: Date, daysBack: number, at: number): string {
  const dayStartMs = Math.floor(now.getTime() / DAY_MS) * DAY_MS - daysBack * DAY_MS;
  return new Date(Math.min(dayStartMs + at, now.getTime())).toISOString();
}
