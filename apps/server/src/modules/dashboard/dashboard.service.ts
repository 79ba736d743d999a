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
import { lastDay, periodRanges, splitByMonths, startOfMonth, type DayRange, type PeriodRanges } from './dashboard-period.ts';

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

/** A range's orders (counted ones) read from orders, as UNION ALL branches of (buyer_id, in_current, in_previous). */
function edgeBuyers(sellerId: string, edges: DayRange[], tag: SQL): SQL[] {
  return edges.filter((r) => r.from < r.until).map((r) => sql`SELECT o.buyer_id, ${tag} FROM orders o WHERE ${placedIn(sellerId, r)} AND ${counted()}`);
}

/**
 * Distinct and repeat buyers of the current AND the previous period in one statement. Each period's
 * whole months come from the monthly rollup seller_buyer_months (its primary key alone: one row per
 * buyer and month), its partial months from the orders (index orders_seller_created_fulfilment_idx),
 * one UNION ALL branch each. A current buyer who also bought in the previous period is a repeat buyer
 * without a probe; the others, and every previous buyer, take one probe for a counted order before the
 * period's first day: in the rollup's earlier months (by buyer, seller, month), else in that month's
 * days before it in the orders.
 */
async function readBuyers(db: Db, sellerId: string, ranges: PeriodRanges): Promise<{ current: Buyers; previous: Buyers }> {
  const current = splitByMonths(ranges.current);
  const previous = splitByMonths(ranges.previous);
  const inCurrent = sql`true, false`;
  const inPrevious = sql`false, true`;
  const months = (r: DayRange, tag: SQL): SQL[] =>
    r.from < r.until
      ? [
          sql`SELECT m.buyer_id, ${tag} FROM seller_buyer_months m WHERE m.seller_id = ${sellerId} AND m.month >= ${r.from}::date AND m.month < ${r.until}::date`,
        ]
      : [];
  const branches = [
    ...months(current.months, inCurrent),
    ...edgeBuyers(sellerId, current.edges, inCurrent),
    ...months(previous.months, inPrevious),
    ...edgeBuyers(sellerId, previous.edges, inPrevious),
  ];
  const earlier = (day: string): SQL => {
    const month = startOfMonth(day);
    return sql`(EXISTS (SELECT 1 FROM seller_buyer_months e WHERE e.buyer_id = b.buyer_id AND e.seller_id = ${sellerId} AND e.month < ${month}::date)
      OR EXISTS (SELECT 1 FROM orders e WHERE e.seller_id = ${sellerId} AND e.buyer_id = b.buyer_id
        AND e.created_at >= ${dayStart(month)} AND e.created_at < ${dayStart(day)} AND ${counted(sql.raw('e'))}))`;
  };
  const [row] = await queryRows<Record<string, unknown>>(
    db,
    sql`WITH seen (buyer_id, in_current, in_previous) AS (${sql.join(branches, sql` UNION ALL `)}),
        b AS (SELECT buyer_id, bool_or(in_current) AS in_current, bool_or(in_previous) AS in_previous FROM seen GROUP BY buyer_id)
        SELECT count(*) FILTER (WHERE b.in_current)::int AS buyers,
          count(*) FILTER (WHERE b.in_current AND (b.in_previous OR ${earlier(ranges.current.from)}))::int AS repeat_buyers,
          count(*) FILTER (WHERE b.in_previous)::int AS previous_buyers,
          count(*) FILTER (WHERE b.in_previous AND ${earlier(ranges.previous.from)})::int AS previous_repeat_buyers
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

type Histogram = Array<{ hours: number; orders: number }>;

/**
 * Where percentile_cont(0.5) finds its two middle values in a histogram of whole hours (ascending):
 * their 0-based ranks `lo` and `hi` (equal when the count is odd), the buckets holding them, and how
 * many values of the period come before `lo` in those buckets' sorted values. Null without values.
 */
export function locateMedian(histogram: Histogram): { hours: number[]; offset: number; take: number } | null {
  const count = histogram.reduce((sum, b) => sum + b.orders, 0);
  if (count === 0) return null;
  const lo = Math.floor((count - 1) / 2);
  const hi = Math.ceil((count - 1) / 2);
  let before = 0;
  let loBucket: { hours: number; before: number } | undefined;
  const hours: number[] = [];
  for (const bucket of histogram) {
    const after = before + bucket.orders;
    if (loBucket === undefined && lo < after) {
      loBucket = { hours: bucket.hours, before };
      hours.push(bucket.hours);
    }
    if (hi < after) {
      if (!hours.includes(bucket.hours)) hours.push(bucket.hours);
      break;
    }
    before = after;
  }
  return { hours, offset: lo - (loBucket?.before ?? 0), take: hi - lo + 1 };
}

/** A median's exact value, as percentile_cont computes it (the two middle values' mean), in hours to one decimal. */
function exactMedian(sellerId: string, range: DayRange, located: ReturnType<typeof locateMedian>, step: 'accept' | 'ship'): SQL {
  if (located === null) return sql`NULL::numeric`;
  // The same expressions as the partial indexes orders_seller_accept_hours_idx and _ship_hours_idx.
  const [from, to] = step === 'accept' ? [sql`o.created_at`, sql`o.accepted_at`] : [sql`o.accepted_at`, sql`o.shipped_at`];
  const present = step === 'accept' ? sql`o.accepted_at IS NOT NULL` : sql`o.shipped_at IS NOT NULL AND o.accepted_at IS NOT NULL`;
  const hours = sql.join(
    located.hours.map((h) => sql`${h}`),
    sql`, `,
  );
  return sql`(SELECT round(((min(x.v) + 0.5::float8 * (max(x.v) - min(x.v))) / 3600)::numeric, 1) FROM (
      SELECT date_part('epoch', ${to} - ${from}) AS v FROM orders o
      WHERE ${placedIn(sellerId, range)} AND ${present} AND (floor(date_part('epoch', ${to} - ${from}) / 3600)::integer) IN (${hours})
      ORDER BY 1 OFFSET ${located.offset} LIMIT ${located.take}) x)`;
}

/**
 * Over every order placed in the period (whatever became of it): the median hours placed → accepted
 * and accepted → shipped (accepted_at and shipped_at, written by the transitions), shipments after the
 * ship-by date, and orders the sweep cancelled for want of an answer. The period's whole months come
 * from seller_fulfilment_months, its partial months from the orders (seller_fulfilment_marks, the
 * rollup's own definition, over the index orders_seller_created_fulfilment_idx; the expired ones apart,
 * as the reason is not in that index). The counts are then sums; each median is found in the hours
 * histogram, and its exact value read from the orders of its one or two buckets only (a second short
 * statement). The durations are `date_part`'s double precision seconds, what percentile_cont sorted.
 */
async function readFulfilment(db: Db, sellerId: string, range: DayRange): Promise<DashboardFulfilment> {
  const split = splitByMonths(range);
  const edges = split.edges.filter((r) => r.from < r.until);
  const branches = [
    sql`SELECT f.measure, f.hours, f.orders FROM seller_fulfilment_months f
        WHERE f.seller_id = ${sellerId} AND f.month >= ${split.months.from}::date AND f.month < ${split.months.until}::date`,
    ...edges.map(
      (
        r,
      ) => sql`SELECT m.measure, m.hours, count(*)::int FROM orders o, seller_fulfilment_marks(o.created_at, o.accepted_at, o.shipped_at, o.ship_by, NULL, NULL) m
        WHERE ${placedIn(sellerId, r)} GROUP BY 1, 2`,
    ),
    ...edges.map(
      (r) => sql`SELECT 'expired', 0, count(*)::int FROM orders o
        WHERE ${placedIn(sellerId, r)} AND o.status = 'cancelled' AND o.reason = ${ORDER_MESSAGES.notAcceptedInTime}`,
    ),
  ];
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`SELECT x.measure, x.hours, sum(x.orders)::int AS orders FROM (${sql.join(branches, sql` UNION ALL `)}) x (measure, hours, orders)
        GROUP BY 1, 2 HAVING sum(x.orders) > 0 ORDER BY 1, 2`,
  );
  const histogram = (measure: string): Histogram => rows.filter((r) => r.measure === measure).map((r) => ({ hours: num(r.hours), orders: num(r.orders) }));
  const total = (measure: string): number => histogram(measure).reduce((sum, b) => sum + b.orders, 0);
  const accept = locateMedian(histogram('accept'));
  const ship = locateMedian(histogram('ship'));
  let medians: Record<string, unknown> | undefined = { accept_hours: null, ship_hours: null };
  if (accept !== null || ship !== null) {
    [medians] = await queryRows<Record<string, unknown>>(
      db,
      sql`SELECT ${exactMedian(sellerId, range, accept, 'accept')} AS accept_hours, ${exactMedian(sellerId, range, ship, 'ship')} AS ship_hours`,
    );
  }
  const shipped = total('shipped');
  const shippedLate = total('late');
  return {
    medianHoursToAccept: numOrNull(medians?.accept_hours),
    medianHoursToShip: numOrNull(medians?.ship_hours),
    shipped,
    shippedLate,
    lateShare: shipped === 0 ? null : Math.round((shippedLate / shipped) * 1000) / 1000,
    expiredUnaccepted: total('expired'),
  };
}

/**
 * Sales per product over the period, read once from the per-product rollup (seller_product_sales_days;
 * a product whose orders were all cancelled keeps a row at zero units, left out here), answered two
 * ways: the ten best by net sales, and the seller's products that will run out within LOW_STOCK_DAYS at
 * the period's daily rate, with the sold-out ones, lowest cover first. A deleted product keeps its
 * rollup rows; both answers join the products that exist, so it is never named. An unlisted product
 * (docs/decisions/025-unlisted-products.md) keeps its sales among the best, marked, and is no one's
 * restock: it is not sold.
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
        (SELECT 'top' AS kind, p.id, p.name, s.cents, s.units, NULL::int AS stock, NULL::numeric AS cover, p.unlisted_at IS NOT NULL AS unlisted,
            row_number() OVER (ORDER BY s.cents DESC, s.units DESC, p.id) AS rank
          FROM sold s JOIN products p ON p.id = s.product_id
          ORDER BY s.cents DESC, s.units DESC, p.id
          LIMIT ${DASHBOARD_LIMITS.topProducts})
        UNION ALL
        (SELECT 'low', c.id, c.name, NULL, NULL, c.stock, round(c.cover, 1), false, row_number() OVER (ORDER BY c.cover, c.name, c.id)
          FROM (
            SELECT p.id, p.name, p.mainquantity AS stock,
              CASE WHEN p.mainquantity = 0 THEN 0 WHEN s.units > 0 THEN p.mainquantity * ${ranges.days}::numeric / s.units END AS cover
            FROM products p LEFT JOIN sold s ON s.product_id = p.id
            WHERE p.owner_id = ${sellerId} AND p.unlisted_at IS NULL
          ) c
          WHERE c.cover < ${LOW_STOCK_DAYS}
          ORDER BY c.cover, c.name, c.id
          LIMIT ${DASHBOARD_LIMITS.lowStock})
        ) answers ORDER BY kind DESC, rank`,
  );
  const top: DashboardTopProduct[] = [];
  const low: DashboardLowStock[] = [];
  for (const r of rows) {
    if (r.kind === 'top')
      top.push({ productId: String(r.id), name: String(r.name), netSales: toDollars(num(r.cents)), units: num(r.units), unlisted: r.unlisted === true });
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
