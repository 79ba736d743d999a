import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { BUSINESS_TIME_ZONE, ORDERS_EXPORT_COLUMNS, toDollars, type Address, type OrdersExportQuery } from '@bulkcart/contracts';
import { queryRows } from '../../db/rows.ts';
import { csvStream } from '../../lib/csv.ts';
import type { DashboardContext } from './dashboard.service.ts';

/** Lines read per query: the export holds one batch in memory, whatever the range. */
const BATCH = 500;

interface ExportRow {
  created_at: unknown;
  order_id: string;
  position: number;
  number: string;
  placed: string;
  ship_by: string | null;
  shipped: string | null;
  status: string;
  buyer_business: string;
  ship_to: Address | null;
  sku: string | null;
  product: string;
  quantity: number;
  unit_cents: unknown;
  line_cents: unknown;
  po_number: string | null;
  carrier: string | null;
  tracking: string | null;
}

function formatShipTo(address: Address | null): string {
  if (!address) return '';
  return [address.company, address.line1, address.line2, address.city, address.region, address.postalCode, address.country].filter(Boolean).join(', ');
}

/**
 * The seller's order lines placed on the chosen days (UTC), oldest first, in batches that continue
 * after the last line read (created_at, order id, line position): served by (seller_id, created_at)
 * and the lines' (order_id, position).
 */
async function* exportLines(ctx: DashboardContext, input: OrdersExportQuery): AsyncGenerator<Array<string | number | null>> {
  const from = sql`(${input.from}::date::timestamp AT TIME ZONE ${BUSINESS_TIME_ZONE})`;
  const until = sql`((${input.to}::date + 1)::timestamp AT TIME ZONE ${BUSINESS_TIME_ZONE})`;
  let after: { createdAt: string; orderId: string; position: number } | null = null;
  for (;;) {
    const rows: ExportRow[] = await queryRows<ExportRow>(
      ctx.db,
      sql`SELECT o.created_at::text AS created_at, o.id AS order_id, l.position, o.number,
            to_char(o.created_at AT TIME ZONE ${BUSINESS_TIME_ZONE}, 'YYYY-MM-DD HH24:MI') AS placed,
            o.ship_by::text AS ship_by,
            (SELECT to_char(min(e.created_at) AT TIME ZONE ${BUSINESS_TIME_ZONE}, 'YYYY-MM-DD HH24:MI') FROM order_events e WHERE e.order_id = o.id AND e.to_status = 'shipped') AS shipped,
            o.status, coalesce(b.legal_name, o.ship_to->>'company', o.buyer_name) AS buyer_business, o.ship_to,
            l.product_sku AS sku, l.product_name AS product, l.quantity, l.unit_price_cents AS unit_cents, l.line_total_cents AS line_cents,
            o.po_number, o.carrier, o.tracking
          FROM orders o
          JOIN order_lines l ON l.order_id = o.id
          LEFT JOIN business_profiles b ON b.user_id = o.buyer_id
          WHERE o.seller_id = ${ctx.user.id} AND o.created_at >= ${from} AND o.created_at < ${until}
            ${after ? sql`AND (o.created_at, o.id, l.position) > (${after.createdAt}::timestamptz, ${after.orderId}::uuid, ${after.position})` : sql``}
          ORDER BY o.created_at, o.id, l.position
          LIMIT ${BATCH}`,
    );
    for (const r of rows) {
      yield [
        r.number,
        r.placed,
        r.ship_by,
        r.shipped,
        r.status,
        r.buyer_business,
        formatShipTo(r.ship_to),
        r.sku,
        r.product,
        Number(r.quantity),
        toDollars(Number(r.unit_cents)).toFixed(2),
        toDollars(Number(r.line_cents)).toFixed(2),
        r.po_number,
        r.carrier,
        r.tracking,
      ];
    }
    const last = rows.at(-1);
    if (!last || rows.length < BATCH) return;
    after = { createdAt: String(last.created_at), orderId: last.order_id, position: Number(last.position) };
  }
}

/** GET /api/seller/orders.csv: one row per order line, for the accountant. */
export function exportOrders(ctx: DashboardContext, input: OrdersExportQuery): Readable {
  return csvStream(ORDERS_EXPORT_COLUMNS, exportLines(ctx, input));
}

/** GET /api/seller/dashboard.csv: the sales chart's buckets. */
export function exportSeries(points: Array<{ start: string; netSales: number; orders: number }>): Readable {
  return csvStream(
    ['Start', 'Net sales', 'Orders'],
    (async function* () {
      for (const p of points) yield [p.start, p.netSales.toFixed(2), p.orders];
    })(),
  );
}
