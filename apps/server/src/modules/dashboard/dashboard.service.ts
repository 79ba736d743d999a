import { sql, type SQL } from 'drizzle-orm';
import {
  BUSINESS_TIME_ZONE,
  DASHBOARD_LIMITS,
  LOW_STOCK_DAYS,
  ORDER_MESSAGES,
  toDollars,
  toIsoDate,
  type Dashboard,
  type DashboardFulfilment,
  type DashboardKpis,
  type DashboardLowStock,
  type DashboardPoint,
  type DashboardQuery,
  type DashboardQueue,
  type DashboardTopProduct,
} from '@bulkcart/contracts';
import type { Db } from '../../db/client.ts';
import { queryRows } from '../../db/rows.ts';
import type { SessionUser } from '../accounts/session.ts';
import { lastDay, periodRanges, type DayRange, type PeriodRanges } from './dashboard-period.ts';

export interface DashboardContext {
  db: Db;
  user: SessionUser;
  clock: () => Date;
}

/** node-postgres answers bigint and numeric as strings, PGlite as numbers: one reading for both. */
const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));

/** The instant a business day starts, as a timestamptz parameter. */
const dayStart = (isoDate: string): SQL => sql`(${isoDate}::date::timestamp AT TIME ZONE ${BUSINESS_TIME_ZONE})`;

/**
 * The seller's orders placed in a range: every dashboard figure starts here, served by the index
 * (seller_id, created_at) of migration 0014. `counted`: without the cancelled and declined ones.
 */
function placedIn(sellerId: string, range: DayRange, alias: SQL = sql.raw('o')): SQL {
  return sql`${alias}.seller_id = ${sellerId} AND ${alias}.created_at >= ${dayStart(range.from)} AND ${alias}.created_at < ${dayStart(range.until)}`;
}
const counted = (alias: SQL = sql.raw('o')): SQL => sql`${alias}.status NOT IN ('cancelled', 'declined')`;

/** The days of a range as SQL dates, for the rollup's `day` column. */
const daysOf = (range: DayRange, alias: SQL): SQL => sql`${alias}.day >= ${range.from}::date AND ${alias}.day < ${range.until}::date`;

type Sums = Pick<DashboardKpis, 'netSales' | 'orders' | 'units' | 'averageOrderValue'>;

/** Net sales, orders, units and average order value of a range, from the daily rollup (seller_sales_days). */
async function readSums(db: Db, sellerId: string, range: DayRange): Promise<Sums> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT s.net_cents, s.orders, s.units,
          CASE WHEN s.orders = 0 THEN 0 ELSE round(s.net_cents::numeric / s.orders)::bigint END AS average_cents
        FROM (
          SELECT coalesce(sum(d.net_cents), 0)::bigint AS net_cents, coalesce(sum(d.orders), 0)::int AS orders, coalesce(sum(d.units), 0)::bigint AS units
          FROM seller_sales_days d WHERE d.seller_id = ${sellerId} AND ${daysOf(range, sql.raw('d'))}
        ) s`,
  );
  return { netSales: toDollars(num(row?.net_cents)), orders: num(row?.orders), units: num(row?.units), averageOrderValue: toDollars(num(row?.average_cents)) };
}

interface Buyers {
  buyers: number;
  repeatBuyers: number;
}

/**
 * Distinct and repeat buyers of the current AND the previous period in one pass over the index
 * orders_seller_created_fulfilment_idx, from the previous period's first day to today (for 12m that
 * also reads the stretch between the two, at most a month): one row per buyer says whether they
 * ordered in each period and before the current one. A current buyer who ordered earlier in that
 * stretch is a repeat buyer without a probe; the others, and every previous buyer, take one probe of
 * (seller_id, buyer_id, created_at) for a counted order before the previous period.
 */
async function readBuyers(db: Db, sellerId: string, ranges: PeriodRanges): Promise<{ current: Buyers; previous: Buyers }> {
  const { current, previous } = ranges;
  const earlier = (buyer: SQL): SQL => sql`EXISTS (
    SELECT 1 FROM orders p
    WHERE p.seller_id = ${sellerId} AND p.buyer_id = ${buyer} AND p.created_at < ${dayStart(previous.from)} AND ${counted(sql.raw('p'))})`;
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`WITH b AS (
          SELECT o.buyer_id,
            bool_or(o.created_at >= ${dayStart(current.from)}) AS in_current,
            bool_or(o.created_at < ${dayStart(previous.until)}) AS in_previous,
            bool_or(o.created_at < ${dayStart(current.from)}) AS before_current
          FROM orders o
          WHERE ${placedIn(sellerId, { from: previous.from, until: current.until })} AND ${counted()}
          GROUP BY o.buyer_id
        )
        SELECT count(*) FILTER (WHERE b.in_current)::int AS buyers,
          count(*) FILTER (WHERE b.in_current AND CASE WHEN b.before_current THEN true ELSE ${earlier(sql.raw('b.buyer_id'))} END)::int AS repeat_buyers,
          count(*) FILTER (WHERE b.in_previous)::int AS previous_buyers,
          count(*) FILTER (WHERE b.in_previous AND ${earlier(sql.raw('b.buyer_id'))})::int AS previous_repeat_buyers
        FROM b`,
  );
  return {
    current: { buyers: num(row?.buyers), repeatBuyers: num(row?.repeat_buyers) },
    previous: { buyers: num(row?.previous_buyers), repeatBuyers: num(row?.previous_repeat_buyers) },
  };
}

/** One point per bucket of the period, the empty ones included (generate_series), in order. */
async function readSeries(db: Db, sellerId: string, ranges: PeriodRanges): Promise<DashboardPoint[]> {
  const unit = sql.raw(`'${ranges.bucket}'`);
  const step = sql.raw(`'1 ${ranges.bucket}'::interval`);
  const { from } = ranges.current;
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`WITH sales AS (
          SELECT date_trunc(${unit}, d.day::timestamp) AS bucket, sum(d.net_cents) AS cents, sum(d.orders) AS orders
          FROM seller_sales_days d WHERE d.seller_id = ${sellerId} AND ${daysOf(ranges.current, sql.raw('d'))}
          GROUP BY 1
        )
        SELECT to_char(greatest(b.bucket, ${from}::date::timestamp), 'YYYY-MM-DD') AS start,
               coalesce(s.cents, 0)::bigint AS cents, coalesce(s.orders, 0)::int AS orders
        FROM generate_series(date_trunc(${unit}, ${from}::date::timestamp), ${lastDay(ranges.current)}::date::timestamp, ${step}) AS b(bucket)
        LEFT JOIN sales s ON s.bucket = b.bucket
        ORDER BY b.bucket`,
  );
  return rows.map((r) => ({ start: String(r.start), netSales: toDollars(num(r.cents)), orders: num(r.orders) }));
}

/**
 * Over every order placed in the period (whatever became of it): the median hours placed → accepted
 * and accepted → shipped (accepted_at and shipped_at, written by the transitions), shipments after the
 * ship-by date (all read from the index orders_seller_created_fulfilment_idx alone), and orders the
 * sweep cancelled for want of an answer (a count of the period's cancelled orders, apart, as the
 * reason is not in that index). The durations are `date_part`'s double precision seconds, what
 * percentile_cont sorts anyway: `extract` answers numeric since PostgreSQL 14, and making then
 * converting a numeric for each of the period's orders only cost time.
 */
async function readFulfilment(db: Db, sellerId: string, range: DayRange): Promise<DashboardFulfilment> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT
          round((percentile_cont(0.5) WITHIN GROUP (ORDER BY date_part('epoch', o.accepted_at - o.created_at)) / 3600)::numeric, 1) AS accept_hours,
          round((percentile_cont(0.5) WITHIN GROUP (ORDER BY date_part('epoch', o.shipped_at - o.accepted_at)) / 3600)::numeric, 1) AS ship_hours,
          count(o.shipped_at)::int AS shipped,
          count(*) FILTER (WHERE (o.shipped_at AT TIME ZONE ${BUSINESS_TIME_ZONE})::date > o.ship_by)::int AS shipped_late,
          (SELECT count(*)::int FROM orders x
            WHERE ${placedIn(sellerId, range, sql.raw('x'))} AND x.status = 'cancelled' AND x.reason = ${ORDER_MESSAGES.notAcceptedInTime}) AS expired
        FROM orders o WHERE ${placedIn(sellerId, range)}`,
  );
  const shipped = num(row?.shipped);
  const shippedLate = num(row?.shipped_late);
  return {
    medianHoursToAccept: numOrNull(row?.accept_hours),
    medianHoursToShip: numOrNull(row?.ship_hours),
    shipped,
    shippedLate,
    lateShare: shipped === 0 ? null : Math.round((shippedLate / shipped) * 1000) / 1000,
    expiredUnaccepted: num(row?.expired),
  };
}

/**
 * Sales per product over the period, read once from the per-product rollup (seller_product_sales_days;
 * a product whose orders were all cancelled keeps a row at zero units, left out here), answered two
 * ways: the ten best by net sales, and the seller's products that will run out within LOW_STOCK_DAYS at
 * the period's daily rate, with the sold-out ones, lowest cover first. A deleted product keeps its
 * rollup rows; both answers join the products that exist, so it is never named.
 */
async function readProductSales(db: Db, sellerId: string, ranges: PeriodRanges): Promise<{ top: DashboardTopProduct[]; low: DashboardLowStock[] }> {
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`WITH sold AS MATERIALIZED (
          SELECT d.product_id, sum(d.net_cents)::bigint AS cents, sum(d.units)::bigint AS units
          FROM seller_product_sales_days d
          WHERE d.seller_id = ${sellerId} AND ${daysOf(ranges.current, sql.raw('d'))}
          GROUP BY d.product_id
          HAVING sum(d.units) > 0
        )
        SELECT * FROM (
        (SELECT 'top' AS kind, p.id, p.name, s.cents, s.units, NULL::int AS stock, NULL::numeric AS cover,
            row_number() OVER (ORDER BY s.cents DESC, s.units DESC, p.id) AS rank
          FROM sold s JOIN products p ON p.id = s.product_id
          ORDER BY s.cents DESC, s.units DESC, p.id
          LIMIT ${DASHBOARD_LIMITS.topProducts})
        UNION ALL
        (SELECT 'low', c.id, c.name, NULL, NULL, c.stock, round(c.cover, 1), row_number() OVER (ORDER BY c.cover, c.name, c.id)
          FROM (
            SELECT p.id, p.name, p.mainquantity AS stock,
              CASE WHEN p.mainquantity = 0 THEN 0 WHEN s.units > 0 THEN p.mainquantity * ${ranges.days}::numeric / s.units END AS cover
            FROM products p LEFT JOIN sold s ON s.product_id = p.id
            WHERE p.owner_id = ${sellerId}
          ) c
          WHERE c.cover < ${LOW_STOCK_DAYS}
          ORDER BY c.cover, c.name, c.id
          LIMIT ${DASHBOARD_LIMITS.lowStock})
        ) answers ORDER BY kind DESC, rank`,
  );
  const top: DashboardTopProduct[] = [];
  const low: DashboardLowStock[] = [];
  for (const r of rows) {
    if (r.kind === 'top') top.push({ productId: String(r.id), name: String(r.name), netSales: toDollars(num(r.cents)), units: num(r.units) });
    else low.push({ productId: String(r.id), name: String(r.name), stock: num(r.stock), daysOfCover: num(r.cover) });
  }
  return { top, low };
}

/** What needs doing now: one read of the placed and accepted orders, by (seller_id, status, seq). */
async function readQueue(db: Db, sellerId: string, today: string): Promise<DashboardQueue> {
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT count(*) FILTER (WHERE status = 'placed')::int AS to_accept,
               count(*) FILTER (WHERE status = 'accepted')::int AS to_ship,
               count(*) FILTER (WHERE status = 'accepted' AND ship_by < ${today}::date)::int AS late
        FROM orders WHERE seller_id = ${sellerId} AND status IN ('placed', 'accepted')`,
  );
  return { toAccept: num(row?.to_accept), toShip: num(row?.to_ship), late: num(row?.late) };
}

/** GET /api/seller/dashboard: the signed-in seller's figures for a period ending today. */
export async function getDashboard(ctx: DashboardContext, input: DashboardQuery): Promise<Dashboard> {
  const now = ctx.clock();
  const ranges = periodRanges(input.period, now);
  const sellerId = ctx.user.id;
  // One after another: on PGlite there is one connection anyway, and on PostgreSQL a dashboard should
  // not take several of the pool's connections at once. Two lanes (buyers, sums and series on one
  // connection; fulfilment, products and queue on another) were measured against this order in
  // alternating rounds (docs/benchmarks.md) and won nothing at 12 months: PostgreSQL already scans the
  // period's orders with parallel workers on this 2-core machine, so a second heavy read only takes
  // turns with the first, while it would hold a second connection per dashboard.
  const buyers = await readBuyers(ctx.db, sellerId, ranges);
  const sums = await readSums(ctx.db, sellerId, ranges.current);
  const previousSums = await readSums(ctx.db, sellerId, ranges.previous);
  const series = await readSeries(ctx.db, sellerId, ranges);
  const fulfilment = await readFulfilment(ctx.db, sellerId, ranges.current);
  const { top: topProducts, low: lowStock } = await readProductSales(ctx.db, sellerId, ranges);
  const queue = await readQueue(ctx.db, sellerId, toIsoDate(now));
  const kpis: DashboardKpis = { ...sums, ...buyers.current };
  const previous: DashboardKpis = { ...previousSums, ...buyers.previous };
  return {
    period: input.period,
    from: ranges.current.from,
    to: lastDay(ranges.current),
    previousFrom: ranges.previous.from,
    previousTo: lastDay(ranges.previous),
    timeZone: BUSINESS_TIME_ZONE,
    kpis,
    previous,
    series,
    topProducts,
    fulfilment,
    lowStock,
    queue,
  };
}

/** GET /api/seller/dashboard.csv: the chart's figures, as its table shows them. */
export async function getDashboardSeries(ctx: DashboardContext, input: DashboardQuery): Promise<DashboardPoint[]> {
  return readSeries(ctx.db, ctx.user.id, periodRanges(input.period, ctx.clock()));
}

/** Whether a user lists products or has sold any: two probes, by (owner_id) and (seller_id, seq). */
export async function isSeller(db: Db, userId: string): Promise<boolean> {
  const [row] = await queryRows<{ seller: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM products WHERE owner_id = ${userId}) OR EXISTS (SELECT 1 FROM orders WHERE seller_id = ${userId}) AS seller`,
  );
  return row?.seller === true;
}
